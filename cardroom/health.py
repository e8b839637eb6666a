"""``/health/`` for load balancers and monitors."""

import logging
import uuid

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


@require_safe
@never_cache
def health(request: HttpRequest) -> JsonResponse:
    """For load balancers and monitors: no login, no details beyond ok/error."""
    checks = {"database": _check_database(), "cache": _check_cache()}
    healthy = all(status == "ok" for status in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )


def _check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any failure means "down"; the log keeps the reason
        logger.exception("Health check: database unavailable")
        return "error"
    return "ok"


def _check_cache() -> str:
    # A fresh key per check, so concurrent checks can't read each other's value.
    key, value = f"health-check:{uuid.uuid4().hex}", "ok"
    try:
        cache.set(key, value, timeout=10)
        found = cache.get(key)
        cache.delete(key)
    except Exception:  # any failure means "down"; the log keeps the reason
        logger.exception("Health check: cache unavailable")
        return "error"
    return "ok" if found == value else "error"
