"""Reads for the dealer's screen of a table dealt by its shuffler: the device in service and
the refusal of its last message about a hand (which the screen offers as a misdeal, R14)."""

from __future__ import annotations

from tables.device_selectors import active_device as active_device
from wagers.models import Hand, ShufflerReport

__all__ = ["active_device", "last_shuffler_refusal"]


def last_shuffler_refusal(hand: Hand) -> ShufflerReport | None:
    """The refusal of the shuffler's last message about the hand, or None: none was refused,
    or a later message dealt it."""
    last = (
        ShufflerReport.objects.filter(hand_id=hand.pk)
        .order_by("-received_at", "-id")
        .select_related("device")
        .first()
    )
    if last is None or last.outcome != ShufflerReport.Outcome.REFUSED:
        return None
    return last
