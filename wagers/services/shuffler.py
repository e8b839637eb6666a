"""A hand dealt by the table's card-reading shuffler (or shoe): the device reports the round's
hands in dispense order — the live spots by seat, then the dealer's (or the designated
player's) hand — and they are checked (R1) and dealt as the dealer's entered cards would be
(``play.round_cards_checked``, ``play.cards_dealt``), with a card source of their own.

Each message is kept once per (device, sequence) as a ``ShufflerReport``: sent again with the
same body it is answered the same and books nothing; with another body it is refused. A
refused message is recorded too, in the message's own transaction while the deal is rolled
back to its savepoint: the hand stays waiting for its cards, and the dealer's screen offers
the misdeal (R14) the refusal calls for.

Who acts: the audit log's actor is a person, and a device is not one. A hand from the
shuffler is recorded as dealt by the table's dealer on duty — the person answerable for the
deal on the felt, who confirms it or declares the misdeal — with the device (id and serial)
and its sequence in the event itself, and ``source: shuffler``: the log says both who was
dealing and what read the cards, and the dealer's role check is the one every hand step
makes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.chain import canonical_json
from audit.services import audit_record
from core.errors import Conflict, DomainError, PermissionDenied
from engine.cards import hand_text
from tables.models import ShufflerDevice
from wagers.models import Hand, ShufflerReport

from .lifecycle import locked_hand
from .play import cards_dealt, live_spots_for_cards, round_cards_checked

#: The hand's answer, as the API gives it (the layer above renders it; kept for a replay).
Render = Callable[[Hand], dict[str, Any]]


class Received(NamedTuple):
    """What became of a message: its report (dealt or refused), and whether it was a replay
    of one received before."""

    report: ShufflerReport
    replayed: bool


def body_digest(*, sequence: int, hand_id: int | None, hands: object) -> str:
    """The digest of a message as sent: the same message has the same digest."""
    body = {"sequence": sequence, "hand": hand_id, "hands": hands}
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def hand_cards_from_shuffler(
    *,
    device: ShufflerDevice,
    sequence: int,
    hand_id: int | None,
    hands: list[Any],
    render: Render,
) -> Received:
    """Deal the table's hand waiting for cards from the device's message, or record why not.

    A refusal is not raised: it is kept (``report.outcome == "refused"``, with its reason,
    field and code) and answered, and the hand stays as it was. Only a message whose sequence
    was used with another body is refused outright (``Conflict`` on ``sequence``): there is
    nothing new to record of it."""
    digest = body_digest(sequence=sequence, hand_id=hand_id, hands=hands)
    with transaction.atomic():
        # One message of a device at a time: a duplicate sent at once waits here, then
        # finds the first one's report.
        device = _locked_device(device)
        prior = ShufflerReport.objects.filter(device=device, sequence=sequence).first()
        if prior is not None:
            if prior.digest != digest:
                raise Conflict(
                    f"Message {sequence} was received already with other hands: number each "
                    "message anew.",
                    field="sequence",
                )
            return Received(prior, replayed=True)
        hand = _table_hand(device, hand_id)
        try:
            with transaction.atomic():  # a savepoint: a refusal rolls the deal back alone
                if hand is None:
                    raise _no_hand(device, hand_id)
                report = _deal(device, sequence, digest, hand, hands, render)
        except DomainError as refusal:
            report = _refused(device, sequence, digest, hand, refusal)
    return Received(report, replayed=False)


def _locked_device(device: ShufflerDevice) -> ShufflerDevice:
    locked = (
        ShufflerDevice.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(pk=device.pk)
        .first()
    )
    if locked is None or locked.revoked_at is not None:
        raise PermissionDenied("This device is not in service.")
    return locked


def _table_hand(device: ShufflerDevice, hand_id: int | None) -> Hand | None:
    """The hand the message is about, when it is the device's table's: the one named, or the
    table's hand in progress."""
    hands = Hand.objects.filter(table_id=device.table_id).select_related("session__dealer")
    if hand_id is not None:
        return hands.filter(pk=hand_id).first()
    return hands.filter(status__in=Hand.IN_PROGRESS).first()


def _no_hand(device: ShufflerDevice, hand_id: int | None) -> Conflict:
    if hand_id is None:
        return Conflict(f"{device.table} has no hand waiting for cards.", field="hand")
    return Conflict(
        f"Hand {hand_id} is not a hand of {device.table}, this device's table.", field="hand"
    )


def _deal(
    device: ShufflerDevice,
    sequence: int,
    digest: str,
    hand: Hand,
    hands: list[Any],
    render: Render,
) -> ShufflerReport:
    dealer = _dealer(hand)
    # Not in progress, or in progress but not waiting for cards: refused on ``hand`` below.
    hand = locked_hand(hand, dealer, "deal from the table's shuffler", settled_ok=True)
    spots = live_spots_for_cards(hand, field="hand")
    if len(hands) != len(spots) + 1:
        raise DomainError(
            f"Hand {hand.number} has {_count(len(spots), 'live spot')} and the dealer's hand: "
            f"{len(spots) + 1} hands, not {len(hands)} (R1).",
            field="hands",
        )
    # Dispense order: the spots by seat, then the dealer's (or the DP's) hand last.
    *spot_hands, dealer_hand = round_cards_checked(
        [(f"hands.{index}", cards) for index, cards in enumerate(hands)]
    )
    hand.dealer_cards = hand_text(dealer_hand)
    for spot, cards in zip(spots, spot_hands, strict=True):
        spot.cards = hand_text(cards)
    about = {"device": device.pk, "serial": device.serial, "sequence": sequence}
    hand = cards_dealt(hand, spots, Hand.CardSource.SHUFFLER, dealer, about=about)
    return ShufflerReport.objects.create(
        device=device,
        sequence=sequence,
        digest=digest,
        outcome=ShufflerReport.Outcome.DEALT,
        answer=render(hand),
        hand=hand,
        received_at=timezone.now(),
    )


def _refused(
    device: ShufflerDevice, sequence: int, digest: str, hand: Hand | None, refusal: DomainError
) -> ShufflerReport:
    field = refusal.field or ""
    report = ShufflerReport.objects.create(
        device=device,
        sequence=sequence,
        digest=digest,
        outcome=ShufflerReport.Outcome.REFUSED,
        answer={"error": {"code": refusal.code, "message": refusal.message, "field": field}},
        code=refusal.code,
        reason=refusal.message,
        field=field,
        hand=hand,
        received_at=timezone.now(),
    )
    audit_record(
        actor=_dealer(hand) if hand is not None else None,
        action=AuditAction.DEVICE_REPORT_REFUSED,
        target=device,
        payload={
            "sequence": sequence,
            "hand": hand.pk if hand is not None else None,
            "serial": device.serial,
            "field": field,
            "reason": refusal.message,
        },
    )
    return report


def _dealer(hand: Hand) -> User:
    """The dealer on duty at the hand's session: who the deal is recorded as (see above)."""
    return hand.session.dealer


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
