from django.apps import AppConfig


class TablesConfig(AppConfig):
    """Tables, their settings, seats, players and stacks."""

    name = "tables"
