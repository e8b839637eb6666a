from django.apps import AppConfig


class WagersConfig(AppConfig):
    """Hands, spots, wagers and settlement."""

    name = "wagers"
