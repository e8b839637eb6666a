"""Logs a machine reads: one JSON object per line on stdout, each with the request id.

``cardroom.middleware.RequestIdMiddleware`` sets the request id while a request runs;
``RequestIdFilter`` puts it on every log record and ``JsonFormatter`` writes a record as one
line of JSON. The production settings' LOGGING uses both; ``gunicorn.conf.py`` writes the
application server's own lines with ``JsonFormatter`` too (``GUNICORN_LOGGING``).
"""

from __future__ import annotations

import contextvars
import json
import logging
from datetime import UTC, datetime

_current: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")

# Attributes every LogRecord has: the rest were passed with ``extra=`` and are written too.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "request_id"}


def current_request_id() -> str:
    return _current.get()


def set_request_id(request_id: str) -> contextvars.Token[str]:
    return _current.set(request_id)


def reset_request_id(token: contextvars.Token[str]) -> None:
    _current.reset(token)


class RequestIdFilter(logging.Filter):
    """Puts the current request id on every record (``-`` outside a request). Django logs a
    4xx or 5xx answer (``django.request``) once the middleware has answered and the current
    id is gone: such a record names its request, whose id it takes."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            request = getattr(record, "request", None)
            record.request_id = getattr(request, "request_id", None) or _current.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message, request id,
    the exception's traceback if any, and whatever was passed with ``extra=``."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", _current.get()),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        return json.dumps(entry, default=str)


#: gunicorn's ``logconfig_dict``: its own lines (the master, the workers, signals) on stdout as
#: JSON, as the application's are; its access log stays off (the proxy keeps one). Whole, not
#: merged with gunicorn's defaults key by key: those name handlers this replaces.
GUNICORN_LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": RequestIdFilter}},
    "formatters": {"json": {"()": JsonFormatter}},
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json",
            "filters": ["request_id"],
        }
    },
    "root": {"level": "INFO", "handlers": ["stdout"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["stdout"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["stdout"], "propagate": False},
    },
}
