"""WSGI entry point. Servers are deployments, so the default is the production settings."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.production")

application = get_wsgi_application()
