"""Celery adapters for players under the law: ids in, a call, idempotent.

Sending an import never fails its caller: a broker that is down marks the import failed with
the reason, for the list to be uploaded again.
"""

import logging
from typing import Any

from celery import shared_task
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from .state_list_runs import (
    state_list_import_mark_unqueued,
    state_list_import_run,
    state_list_imports_fail_stalled,
)

logger = logging.getLogger(__name__)

#: What sending a task raises when the broker is down.
BROKER_DOWN = (OperationalError, RedisError, OSError)


@shared_task(name="patrons.import_state_list", bind=True, ignore_result=True)
def import_state_list_task(self: Any, import_id: int) -> dict:
    """Import one state exclusion list (enqueued on commit by ``state_list_import_request``)."""
    job = state_list_import_run(import_id, task_id=self.request.id)
    return {"import": job.pk, "status": job.status, "added": job.added}


def state_list_import_enqueue(import_id: int) -> bool:
    """Send the import to a worker (on commit); a broker that is down marks it failed."""
    try:
        import_state_list_task.delay(import_id)
    except BROKER_DOWN as error:
        logger.exception("State list import %s could not be queued", import_id)
        state_list_import_mark_unqueued(import_id, f"{type(error).__name__}: {error}")
        return False
    return True


@shared_task(name="patrons.fail_stalled_state_list_imports", ignore_result=True)
def fail_stalled_state_list_imports_task() -> dict:
    """Periodic (beat): an import whose worker died says so, instead of running forever."""
    return {"failed": state_list_imports_fail_stalled()}
