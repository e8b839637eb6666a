"""gunicorn's settings for the floor dashboard's event stream alone (docs/production.md, "The
pushed floor dashboard"): ``gunicorn -c gunicorn_stream.conf.py cardroom.wsgi``, with the
proxy sending ``/floor/stream/`` here and everything else to the sync workers.

``gthread`` workers: each open floor screen holds one thread, asleep on its Redis
subscription, for up to ``FLOOR_STREAM_SECONDS``; a sync worker would be held whole (and the
stream answers 204 there, the screen then polls). ``STREAM_THREADS`` bounds the screens one
worker holds; ``timeout`` is the worker's heartbeat under gthread, not a request's length."""

import os

from cardroom.logs import GUNICORN_LOGGING

bind = os.environ.get("GUNICORN_STREAM_BIND", "127.0.0.1:8001")
workers = int(os.environ.get("STREAM_WORKERS", 1))
worker_class = "gthread"
threads = int(os.environ.get("STREAM_THREADS", 100))
timeout = 30
graceful_timeout = 5
accesslog = None
logconfig_dict = GUNICORN_LOGGING
