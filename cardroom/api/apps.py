from django.apps import AppConfig


class ApiConfig(AppConfig):
    """Shared API machinery; its one model remembers idempotency keys."""

    name = "cardroom.api"
    label = "api"
