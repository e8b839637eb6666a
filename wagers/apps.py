from typing import Any

from django.apps import AppConfig
from django.db import transaction
from django.db.models.signals import post_save


class WagersConfig(AppConfig):
    """Hands, spots, wagers and settlement."""

    name = "wagers"

    def ready(self) -> None:
        # An exclusion takes effect at once: patrons hands its new entries and identities up
        # to the layer that can hold a seat and take back a hand's wagers.
        from patrons import hooks

        from .models import Settlement
        from .services import holds

        hooks.on_exclusions_recorded(holds.exclusions_hold_seated)
        hooks.on_identity_recorded(holds.player_hold_if_excluded)
        # Each settlement entry's decisions are valued after it commits (R8), by a worker:
        # the settlement's own transaction only notes the id.
        post_save.connect(_value_decisions_on_commit, sender=Settlement, weak=False)


def _value_decisions_on_commit(sender: type, instance: Any, created: bool, **kwargs: Any) -> None:
    if created and instance.kind != "reversal":
        from .tasks import value_decisions_enqueue

        pk = instance.pk
        transaction.on_commit(lambda: value_decisions_enqueue(pk))
