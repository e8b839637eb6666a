"""Celery adapters for the wagers layer: ids in, a service call, idempotent."""

from __future__ import annotations

import logging

from celery import shared_task

from .decision_costs import decision_costs_record, decision_costs_sweep

logger = logging.getLogger(__name__)


@shared_task(name="wagers.value_decisions", ignore_result=True)
def value_decisions_task(settlement_id: int) -> dict:
    """Value one settlement entry's decisions (R8), enqueued on its commit."""
    return {"settlement": settlement_id, "rows": decision_costs_record(settlement_id=settlement_id)}


@shared_task(name="wagers.sweep_decisions", ignore_result=True)
def sweep_decisions_task() -> dict:
    """Periodic (beat): entries a lost message left without their valuation."""
    return {"valued": decision_costs_sweep()}


def value_decisions_enqueue(settlement_id: int) -> None:
    """Send the valuation to a worker (on commit). A broker that is down loses nothing: the
    sweep values the entry later; the settlement has committed and answers as usual."""
    try:
        value_decisions_task.delay(settlement_id)
    except Exception:  # noqa: BLE001 - never fail the request that settled the hand
        logger.exception("The decisions of settlement %s could not be queued", settlement_id)
