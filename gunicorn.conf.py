"""gunicorn's settings for the cardroom (docs/production.md):
``gunicorn -c cardroom/gunicorn.conf.py cardroom.wsgi``.

Sync workers, ``2 × cores`` of them by default (``WEB_CONCURRENCY`` to change): a request is
CPU in Python and waits on PostgreSQL, so two workers per core keep the core busy while one
waits; more only queue on the GIL-less CPU and on row locks. Each worker keeps one database
connection (``CONN_MAX_AGE``)."""

import multiprocessing
import os

from cardroom.logs import GUNICORN_LOGGING

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count()))
worker_class = "sync"
timeout = 30
graceful_timeout = 30
max_requests = 10_000  # recycle a worker now and then (a slow leak never grows)
max_requests_jitter = 1_000
accesslog = None  # the app logs its own JSON lines; the proxy keeps the access log
# gunicorn's own lines as JSON on stdout, like the app's (cardroom.logs).
logconfig_dict = GUNICORN_LOGGING


def post_worker_init(worker: object) -> None:
    """Once the worker has loaded Django and the project, move everything loaded so far out of
    the garbage collector's sight: those objects live as long as the worker, and a full
    collection walking them all was a pause in the middle of requests."""
    import gc

    gc.freeze()
