"""The demo's shuffler: the designated-player table gets a card-reading shuffler, registered by
the floor supervisor, and its first hand today is dealt by it — the simulator
(``tables.shuffler_simulator``) posting over the device API in this process, as the device
would over the network. So ``./dev run`` shows a hand whose cards no one entered.

Once: when the table has its shuffler already, nothing is registered or dealt again (the
token was shown, once, when it was registered)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction

from tables.demo import DEMO_CARDROOM, DEMO_TABLES
from tables.device_selectors import active_device
from tables.models import Seating, ShufflerDevice, Table
from tables.services.devices import device_register
from tables.shuffler_simulator import InProcessDevice, Simulator
from wagers import selectors as hand_selectors
from wagers import services as hand_services
from wagers.models import Hand

MAKE, MODEL, SERIAL = "Cardroom", "Simulated hand-forming shuffler", "SIM-0001"


@dataclass(frozen=True)
class DemoShuffler:
    table: Table
    device: ShufflerDevice
    token: str | None  # shown once: only on the run that registered it
    hand: Hand | None  # the hand it dealt on that run


@transaction.atomic
def load_demo_shuffler() -> DemoShuffler | None:
    """Register the DP table's shuffler and deal today's first hand with it, once."""
    name = next(name for name, banking, _ in DEMO_TABLES if banking == "designated_player")
    table = Table.objects.filter(cardroom__name=DEMO_CARDROOM, name=name).first()
    if table is None:
        return None
    device = active_device(table)
    if device is not None:
        return DemoShuffler(table, device, None, None)
    floor, dealer = User.objects.get(username="floor"), User.objects.get(username="dealer")
    registered = device_register(
        table=table,
        kind="shuffler",
        make=MAKE,
        model=MODEL,
        serial=SERIAL,
        certification_ref="none: the demo's simulator (manage.py shuffler_simulate)",
        by=floor,
    )
    hand = _shuffler_hand(table, registered.token, dealer)
    return DemoShuffler(table, registered.device, registered.token, hand)


def _shuffler_hand(table: Table, token: str, dealer: User) -> Hand | None:
    """Today's first hand: every seat but the DP's antes $10, the shuffler deals, each spot
    raises 1× (always allowed, R8) and the hand settles. A table in the middle of a hand
    (someone played it already) is left as it is."""
    if hand_selectors.hands_in_progress(table=table).exists():
        return None
    hand = hand_services.hand_start(table=table, by=dealer)
    for seating in Seating.objects.filter(table=table, left_at=None).order_by("seat"):
        if seating.pk != hand.dp_seating_id and seating.exclusion_hold_id is None:
            hand_services.wager_place(hand=hand, seating=seating, ante="10", by=dealer)
    Simulator(InProcessDevice(token)).deal(wait=0)
    hand.refresh_from_db()
    for spot in hand.spots.filter(dead_reason="").order_by("seat"):
        hand_services.spot_decide(
            hand=hand, seat=spot.seat, decision="raise", raise_amount=spot.ante, by=dealer
        )
    hand_services.hand_settle(hand=hand, by=dealer)
    hand.refresh_from_db()
    return hand
