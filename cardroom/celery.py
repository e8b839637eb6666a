"""The Celery app. Its settings are the CELERY_* names in Django's settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.local")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
