"""A developer's machine: `./dev run` and `manage.py` use this by default."""

from .base import *  # noqa: F403
from .env import env_bool

DEBUG = env_bool("DJANGO_DEBUG", True)
