from django.apps import AppConfig


class RakeConfig(AppConfig):
    """Collection fees and the fee ledger."""

    name = "rake"
