"""The test run (pytest-django selects it in pyproject.toml)."""

import os
import tempfile
from pathlib import Path

from .base import *  # noqa: F403
from .base import CACHES
from .env import audit_checkpoint_keys, env_list, field_encryption_keys

_KEY = (env_list("FIELD_ENCRYPTION_KEY") or ["bmV2ZXItdXNlLXRoaXMtdGVzdC1rZXktYW55d2hlcmU="])[0]

# Hashing passwords properly is deliberately slow; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# Keep test keys apart from anything else living in the same Redis database.
CACHES["default"]["KEY_PREFIX"] = "cardroom-test"

# Tasks run inline in tests, with or without Redis, so that work enqueued on commit is done
# when the test looks; the test that runs a real worker on Redis turns this off for itself.
CELERY_TASK_ALWAYS_EAGER = True
# A directory of this test run's own (CI runs two side by side), inherited by the servers and
# workers the tests start as subprocesses through the environment.
os.environ.setdefault("CARDROOM_TEST_MEDIA", tempfile.mkdtemp(prefix="cardroom-test-media-"))
MEDIA_ROOT = Path(os.environ["CARDROOM_TEST_MEDIA"])
# One process: the role cache is tried in memory too (its invalidation is tested).
ROLE_CACHE_SECONDS = 300

# A fixed key unless one is given: tests make no key file.
FIELD_ENCRYPTION_KEYS = field_encryption_keys(None, environ={"FIELD_ENCRYPTION_KEY": _KEY})
# A fixed checkpoint key; no sink, except the one tests/conftest.py gives each test.
AUDIT_CHECKPOINT_KEYS = audit_checkpoint_keys(
    None, environ={"AUDIT_CHECKPOINT_KEY": "never-use-this-test-key-for-audit-checkpoints"}
)
AUDIT_CHECKPOINT_SINK = ""
# A fixed ID lookup key too (production requires its own), which the servers the tests start
# under the production settings are given.
ID_LOOKUP_KEY = env_list("ID_LOOKUP_KEY", ["never-use-this-test-id-lookup-key"])[0]
