"""The production settings serving only the minimal DRF insert view (``bench.minimal_urls``):
the floor under which no API view of the project can go, on the same gunicorn settings."""

from cardroom.settings.production import *  # noqa: F403

ROOT_URLCONF = "bench.minimal_urls"
