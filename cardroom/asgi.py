"""ASGI entry point. Servers are deployments, so the default is the production settings."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.production")

application = get_asgi_application()
