"""A developer's machine: `./dev run` and `manage.py` use this by default."""

from .base import *  # noqa: F403
from .base import BASE_DIR
from .env import audit_checkpoint_keys, env_bool, field_encryption_keys

DEBUG = env_bool("DJANGO_DEBUG", True)
# FIELD_ENCRYPTION_KEY, or else a local key file made (and announced) on first use.
FIELD_ENCRYPTION_KEYS = field_encryption_keys(BASE_DIR / "var" / "field-encryption.key")
# AUDIT_CHECKPOINT_KEY, or else a local key file made (and announced) on first use.
AUDIT_CHECKPOINT_KEYS = audit_checkpoint_keys(BASE_DIR / "var" / "audit-checkpoint.key")
