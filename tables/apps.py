from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables, their settings, seats, players and stacks."""

    name = "tables"

    def ready(self) -> None:
        # The two-person change kinds register themselves when their modules load.
        from . import catalogue, staff  # noqa: F401
        from .services import exclusion_ends, self_approval, setting_changes  # noqa: F401
