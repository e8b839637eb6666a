"""A deployment: refuses to start without its secret key and host names."""

from .base import *  # noqa: F403
from .env import env_list, env_required, field_encryption_keys

DEBUG = False
SECRET_KEY = env_required("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", required=True)
# No key file in production: the key that encrypts ID numbers comes from the environment.
FIELD_ENCRYPTION_KEYS = field_encryption_keys(None)
# Needed when TLS ends at a proxy on another origin, e.g. https://cardroom.example.
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
