"""Celery adapters for the audit app: ids in, a service call, idempotent."""

import logging

from celery import shared_task

from .services import audit_checkpoint_record, audit_refusals_flush

logger = logging.getLogger(__name__)


@shared_task(name="audit.verify_chain")
def verify_chain_task() -> dict:
    """Periodic (beat, every minute): verify the chains since the last checkpoint and record a
    signed checkpoint of their heads when they hold."""
    checkpoint = audit_checkpoint_record()
    if checkpoint is None:
        logger.error("The audit chain is broken: run `manage.py verify_audit` for where.")
        return {"ok": False}
    return {"ok": True, "seq": checkpoint.seq, "hash": checkpoint.hash}


@shared_task(name="audit.flush_refusals")
def flush_refusals_task() -> dict:
    """Periodic (beat, every minute): refusals tallied in a minute that is over, written."""
    return {"written": audit_refusals_flush()}
