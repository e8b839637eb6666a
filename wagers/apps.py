from django.apps import AppConfig


class WagersConfig(AppConfig):
    """Hands, spots, wagers and settlement."""

    name = "wagers"

    def ready(self) -> None:
        # An exclusion takes effect at once: patrons hands its new entries and identities up
        # to the layer that can hold a seat and take back a hand's wagers.
        from patrons import hooks

        from .services import holds

        hooks.on_exclusions_recorded(holds.exclusions_hold_seated)
        hooks.on_identity_recorded(holds.player_hold_if_excluded)
