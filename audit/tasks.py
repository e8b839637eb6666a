"""Celery adapters for the audit app: ids in, a service call, idempotent."""

import logging

from celery import shared_task

from .services import audit_checkpoint_record, audit_refusals_flush
from .sweep import sweep_step

logger = logging.getLogger(__name__)


@shared_task(name="audit.verify_chain")
def verify_chain_task() -> dict:
    """Periodic (beat, every minute): re-hash the next slice of the older events
    (``audit.sweep``), verify the chains since the last checkpoint, and record a signed
    checkpoint of their heads when both hold."""
    swept = sweep_step()
    if swept.behind:
        logger.warning(
            "The audit log is too large for the rolling re-hash to pass over it within a day "
            "at audit.sweep.MAX_SLICE events a minute: raise it."
        )
    if not swept.ok:
        logger.error(
            "The audit chain is broken behind the last checkpoint: %s. No checkpoint is "
            "signed until it is whole; run `manage.py verify_audit` for every break.",
            swept.problem,
        )
        return {"ok": False, "swept": swept.as_dict()}
    checkpoint = audit_checkpoint_record()
    if checkpoint is None:
        logger.error("The audit chain is broken: run `manage.py verify_audit` for where.")
        return {"ok": False, "swept": swept.as_dict()}
    return {
        "ok": True,
        "seq": checkpoint.seq,
        "hash": checkpoint.hash,
        "swept": swept.as_dict(),
    }


@shared_task(name="audit.flush_refusals")
def flush_refusals_task() -> dict:
    """Periodic (beat, every minute): refusals tallied in a minute that is over, written."""
    return {"written": audit_refusals_flush()}
