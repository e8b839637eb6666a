"""The test run (pytest-django selects it in pyproject.toml)."""

from .base import *  # noqa: F403
from .base import CACHES

# Hashing passwords properly is deliberately slow; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Keep test keys apart from anything else living in the same Redis database.
CACHES["default"]["KEY_PREFIX"] = "cardroom-test"
