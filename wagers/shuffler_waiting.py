"""What a table's shuffler may read before it deals (``GET /api/v1/device/hand/``): whether
its table's hand waits for cards, how many seven-card hands to dispense, and the last sequence
number the system holds from it — what a hand-forming shuffler is told at the table (the
number of hands) and keeps itself (its counter), so that a device restarted mid-evening goes
on where it stopped. Nothing here names a player or shows a card."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from tables.models import ShufflerDevice

from .models import Hand, ShufflerReport


def device_waiting(device: ShufflerDevice) -> dict[str, Any]:
    """The table's hand waiting for cards (wagers placed, not dealt), or ``None``; ``hands``:
    its live spots and the dealer's (the DP's) hand, in dispense order by seat (R1: 7 each)."""
    table = device.table
    hand = (
        Hand.objects.filter(table=table, status=Hand.Status.WAGERING).only("pk", "number").first()
    )
    seats = (
        list(hand.spots.filter(dead_reason="").order_by("seat").values_list("seat", flat=True))
        if hand is not None
        else []
    )
    last = ShufflerReport.objects.filter(device=device).aggregate(last=Max("sequence"))["last"]
    return {
        "table": table.pk,
        "table_name": table.name,
        "hand": hand.pk if hand is not None and seats else None,
        "number": hand.number if hand is not None and seats else None,
        "seats": seats,
        "hands": len(seats) + 1 if seats else 0,
        "last_sequence": last,
    }
