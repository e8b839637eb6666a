"""Playing a hand: wagers (R5–R7), the deal or the dealer's cards (R1), decisions (R8) and
dead spots (R14). The game rules are the engine's checks; nothing here re-implements them.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import ZERO, cents, money, money_text
from core.transactions import change_atomic
from core.updates import set_by_pk
from engine import Decision, TableRules
from engine.cards import DECK, HAND_SIZE, hand_from_cards, hand_text, parse_hand
from engine.checks import check_ante, check_bonus, check_hand_size, check_raise
from engine.fees import RakeMode, spot_fee
from engine.hands import flush_key, flush_size
from engine.table import MAX_SPOTS
from tables import rules as table_rules
from tables.holds import hold_refusal
from tables.models import Seating, StackEntry
from tables.services.stacks import stack_entry_add
from wagers import selectors
from wagers.models import Hand, Spot

from .lifecycle import S, engine_errors, hand_transition, locked_hand


@change_atomic()
def wager_place(
    *,
    hand: Hand,
    seating: Seating,
    ante: object,
    flush_bonus: object = ZERO,
    straight_flush_bonus: object = ZERO,
    seat: int | None = None,
    by: User,
) -> Spot:
    """A spot's ante and bonuses (R5), at the player's seat or, for a second spot (R6), at an
    empty one. Chips leave the table stack (only chips play), and the stack must still cover a
    1× raise and the fee for each of the player's spots (R7)."""
    hand = locked_hand(hand, by, "take wagers")
    seating = Seating.objects.select_for_update().select_related("player").get(pk=seating.pk)
    hand_transition(hand, S.WAGERING)
    play = Wagering.of(hand, by=by)
    spot, stakes = play.spot(seating, seat, ante, flush_bonus, straight_flush_bonus)
    spot.save(force_insert=True)
    hand.save(update_fields=["status"])
    stack_entry_add(seating=seating, amount=-stakes, reason=StackEntry.Reason.WAGER, by=by)
    audit_record(
        actor=by,
        action=AuditAction.HAND_WAGER_PLACED,
        target=hand,
        payload=wager_payload(spot),
    )
    return spot


def wager_payload(spot: Spot) -> dict[str, Any]:
    return {
        "seat": spot.seat,
        "player": spot.player_id,
        "ante": spot.ante,
        "flush_bonus": spot.flush_bonus,
        "straight_flush_bonus": spot.straight_flush_bonus,
    }


class Wagering:
    """What a wager is checked against (R5–R7, R16): the hand's rules and fee, its spots so
    far and who sits where; read once, so that a whole hand's wagers are checked in memory
    (each spot placed counts for the next, as one request after another would). ``by`` is
    who places them: what a refusal of a held seat tells them (``tables.holds``)."""

    def __init__(
        self, hand: Hand, spots: list[Spot], sitters: dict[int, Seating], by: User
    ) -> None:
        self.hand, self.spots, self.sitters, self.by = hand, spots, sitters, by
        self.rules = _rules(hand)
        self.fee = _spot_fee(hand)
        self.spent: dict[int, Decimal] = {}  # chips already taken from a stack in this batch

    @classmethod
    def of(cls, hand: Hand, sitters: dict[int, Seating] | None = None, *, by: User) -> Wagering:
        """``sitters``: who sits where, when the caller has read them already."""
        if sitters is None:
            seated = Seating.objects.filter(table_id=hand.table_id, left_at=None)
            sitters = {s.seat: s for s in seated.select_related("player")}
        return cls(hand, selectors.spots_of(hand), sitters, by)

    def spot(
        self,
        seating: Seating,
        seat: int | None,
        ante: object,
        flush_bonus: object,
        straight_flush_bonus: object,
    ) -> tuple[Spot, Decimal]:
        """The spot (not saved) and the chips it takes from the stack, or a refusal."""
        hand = self.hand
        if seating.table_id != hand.table_id or seating.left_at is not None:
            raise DomainError(f"{seating.player} is not seated at {hand.table}.", field="seating")
        if seating.exclusion_hold_id is not None:  # an exclusion matched: no more wagers
            raise hold_refusal(seating, by=self.by)
        if seating.pk == hand.dp_seating_id:
            raise DomainError(
                "The designated player places no wagers this hand (R16).", field="seat"
            )
        if seating.proposition_player:
            raise DomainError(
                f"{seating.player} is the table's proposition player: that seat places no spot "
                "wagers (R16).",
                field="seating",
            )
        seat = seating.seat if seat is None else seat
        self._check_seat(seating, seat)
        amounts = {
            "ante": money(ante, field="ante"),
            "flush_bonus": money(flush_bonus or ZERO, field="flush_bonus"),
            "straight_flush_bonus": money(
                straight_flush_bonus or ZERO, field="straight_flush_bonus"
            ),
        }
        others = [spot for spot in self.spots if spot.player_id == seating.player_id]
        self._check_amounts(seating, amounts, others)
        stakes = sum(amounts.values(), ZERO)
        self._check_stack(seating, stakes, amounts["ante"], others)
        spot = Spot(hand=hand, seat=seat, seating=seating, player=seating.player, **amounts)
        self.spots.append(spot)
        self.spent[seating.pk] = self.spent.get(seating.pk, ZERO) + stakes
        return spot, stakes

    def _check_seat(self, seating: Seating, seat: int) -> None:
        """Where a spot may go: a seat of the table that has no spot yet, not the DP's (R16),
        and the player's own or an empty one (R6); at most ``MAX_SPOTS`` spots a round
        (R1)."""
        hand, table = self.hand, self.hand.table
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count:
            raise DomainError(f"Seat must be a number from 1 to {table.seat_count}.", field="seat")
        if len(self.spots) >= MAX_SPOTS:  # 7 cards each and the dealer's 7: 49 of 52 (R1)
            raise Conflict(
                f"Hand {hand.number} has {MAX_SPOTS} spots, the most a round can deal (R1).",
                field="seat",
            )
        if hand.dp_seating is not None and seat == hand.dp_seating.seat:
            raise DomainError(f"Seat {seat} is the designated player's (R16).", field="seat")
        if any(spot.seat == seat for spot in self.spots):
            raise Conflict(f"Seat {seat} has a spot in this hand already.", field="seat")
        sitter = self.sitters.get(seat)
        if sitter is not None and sitter.pk != seating.pk:
            raise DomainError(
                f"Seat {seat} is {sitter.player}'s; a second spot goes on an empty seat (R6).",
                field="seat",
            )

    def _check_amounts(
        self, seating: Seating, amounts: dict[str, Decimal], others: list[Spot]
    ) -> None:
        if len(others) >= 2:
            raise DomainError(
                f"{seating.player} plays two spots already; a third is not allowed (R6).",
                field="seat",
            )
        with engine_errors():
            for name in ("flush_bonus", "straight_flush_bonus"):
                label = name.replace("_", " ")
                check_bonus(self.rules, cents(amounts[name]), field=name, name=label)
            check_ante(self.rules, cents(amounts["ante"]), field="ante", two_spots=bool(others))
            for other in others:  # R6: the first spot's ante must also be double the minimum
                check_ante(self.rules, cents(other.ante), field="ante", two_spots=True)

    def _check_stack(
        self, seating: Seating, stakes: Decimal, ante: Decimal, others: list[Spot]
    ) -> None:
        fee = self.fee
        reserve = sum((spot.ante + fee for spot in others), ZERO) + ante + fee
        stack = seating.stack - self.spent.get(seating.pk, ZERO)
        if stack < stakes + reserve:
            raise DomainError(
                f"{seating.player} has ${money_text(stack)}; this spot needs "
                f"${money_text(stakes)} in wagers and ${money_text(reserve)} more on the table "
                "for a 1× raise and the fee on each spot (R7).",
                field="ante",
            )


@change_atomic()
def hand_deal(*, hand: Hand, by: User) -> Hand:
    """The system deals from a deck shuffled with a CSPRNG (``secrets``), at this moment: no
    card exists anywhere before it is dealt."""
    hand = locked_hand(hand, by, "deal")
    spots = live_spots_for_cards(hand)
    deck = list(DECK)
    secrets.SystemRandom().shuffle(deck)
    hand.dealer_cards = hand_text(hand_from_cards(deck[:HAND_SIZE]))
    for index, spot in enumerate(spots, start=1):
        spot.cards = hand_text(hand_from_cards(deck[HAND_SIZE * index : HAND_SIZE * (index + 1)]))
    return cards_dealt(hand, spots, Hand.CardSource.SYSTEM, by)


@change_atomic()
def hand_cards_enter(
    *, hand: Hand, dealer_cards: str, spot_cards: Mapping[int, str], by: User
) -> Hand:
    """The cards of a physical deal, as the dealer reads them (R1): 7 per hand, no card twice.
    A wrong count is not entered: declare the spot dead, or the round a misdeal (R14)."""
    hand = locked_hand(hand, by, "enter cards")
    spots = live_spots_for_cards(hand)
    seats = {spot.seat for spot in spots}
    for seat in spot_cards:
        if seat not in seats:
            raise DomainError(f"Seat {seat} has no live spot in this hand.", field=f"cards.{seat}")
    entries = [("dealer_cards", dealer_cards)] + [
        (f"cards.{spot.seat}", spot_cards.get(spot.seat)) for spot in spots
    ]
    for field, text in entries:
        if not text:
            raise DomainError("Enter this hand's 7 cards.", field=field)
    dealer, *hands = round_cards_checked(entries)
    hand.dealer_cards = hand_text(dealer)
    for spot, cards in zip(spots, hands, strict=True):
        spot.cards = hand_text(cards)
    return cards_dealt(hand, spots, Hand.CardSource.ENTERED, by)


def round_cards_checked(entries: Sequence[tuple[str, object]]) -> list[int]:
    """The hands of a physical deal, each ``(field, cards)``, parsed and checked in the order
    given (R1): seven cards each, none dealt twice in the round; a refusal names the field of
    the first hand at fault."""
    dealt, hands = 0, []
    for field, text in entries:
        with engine_errors(field):
            cards = parse_hand(text, field=field)
            check_hand_size(cards, field=field)
        if dealt & cards:
            raise DomainError(
                f"{hand_text(dealt & cards)} is in another hand already: a card is dealt once "
                "(R1).",
                field=field,
            )
        dealt |= cards
        hands.append(cards)
    return hands


def live_spots_for_cards(hand: Hand, *, field: str = "status") -> list[Spot]:
    """The spots to deal to, by seat: the hand must be waiting for its cards (``field`` names
    the refusal)."""
    if hand.status != S.WAGERING:
        raise Conflict(
            f"Hand {hand.number} is {hand.status}: cards are dealt once, after the wagers.",
            field=field,
        )
    spots = selectors.spots_of(hand)
    selectors.spots_kept(hand, spots)  # the dealt ones get their cards in place, then saved
    return [spot for spot in spots if not spot.dead_reason]


def cards_dealt(
    hand: Hand,
    spots: list[Spot],
    source: Hand.CardSource,
    by: User,
    *,
    about: Mapping[str, Any] | None = None,
) -> Hand:
    """The cards set on the hand and its spots saved, the hand dealt and audited; ``about``
    adds to the event (the device a shuffler's hand came from)."""
    hand_transition(hand, S.DEALT)
    hand.card_source = source
    hand.save(update_fields=["status", "card_source", "dealer_cards"])
    set_by_pk(Spot, ["cards"], {spot.pk: [spot.cards] for spot in spots})
    audit_record(
        actor=by,
        action=AuditAction.HAND_DEALT,
        target=hand,
        payload={
            "source": source,
            "dealer": hand.dealer_cards,
            "spots": {str(spot.seat): spot.cards for spot in spots},
            **(about or {}),
        },
    )
    return hand


@change_atomic()
def spot_decide(
    *, hand: Hand, seat: int, decision: str, raise_amount: object = None, by: User
) -> Spot:
    """Raise (R8: from the ante up to the multiple the spot's flush allows, within the stack)
    or fold; ``walked_away`` is a fold. A decision is final."""
    hand = locked_hand(hand, by, "record a decision")
    spot = _spot(hand, seat)
    seating = Seating.objects.select_for_update().get(pk=spot.seating_id)
    hand_transition(hand, S.DECISIONS)
    live = hand.spots.filter(seating=seating, dead_reason="").count()
    amount = decide(hand, spot, seating, decision, raise_amount, live=live, stack=seating.stack)
    spot.save(update_fields=["decision", "raise_amount"])
    hand.save(update_fields=["status"])
    if amount:
        stack_entry_add(seating=seating, amount=-amount, reason=StackEntry.Reason.WAGER, by=by)
    audit_record(
        actor=by,
        action=AuditAction.HAND_DECISION,
        target=hand,
        payload={"seat": seat, "decision": decision, "raise": amount},
    )
    return spot


def decide(
    hand: Hand,
    spot: Spot,
    seating: Seating,
    decision: str,
    raise_amount: object,
    *,
    live: int,
    stack: Decimal,
) -> Decimal:
    """Check a spot's decision (R8, R14) against the seating's ``stack`` and its ``live``
    spots (each still owes its fee, R7), set it on the spot (not saved), and answer the raise
    it takes from the stack."""
    seat = spot.seat
    if spot.dead_reason:
        raise Conflict(f"Seat {seat}'s spot is dead: it takes no decision (R14).", field="seat")
    if spot.decision:
        raise Conflict(f"Seat {seat} has decided already ({spot.decision}).", field="decision")
    if decision not in {d.value for d in Decision}:
        raise DomainError("The decision is raise, fold or walked_away (R8).", field="decision")
    amount = ZERO
    if decision == Decision.RAISE:
        amount = money(raise_amount, field="raise_amount")
        size = flush_size(flush_key(parse_hand(spot.cards, field="cards")))
        with engine_errors("raise_amount"):
            check_raise(_rules(hand), cents(spot.ante), cents(amount), size, field="raise_amount")
        fees = _spot_fee(hand) * live
        if amount + fees > stack:
            raise DomainError(
                f"The raise ${money_text(amount)} is more than the stack "
                f"${money_text(stack)} can cover with the fee still due (R7).",
                field="raise_amount",
            )
    elif raise_amount:
        raise DomainError("Only a raise has an amount (R8).", field="raise_amount")
    spot.decision, spot.raise_amount = decision, amount
    return amount


@change_atomic()
def spot_declare_dead(*, hand: Hand, seat: int, by: User) -> Spot:
    """R14: the spot was dealt a wrong number of cards; declared before it acts."""
    hand = locked_hand(hand, by, "declare a dead spot")
    spot = _spot(hand, seat)
    if hand.status not in Hand.IN_PROGRESS:
        raise Conflict(f"Hand {hand.number} is {hand.status}.", field="status")
    if spot.decision or spot.dead_reason:
        raise Conflict(
            f"Seat {seat} has acted already: a wrong count is declared before the spot acts (R14).",
            field="seat",
        )
    spot.dead_reason, spot.cards = "wrong_card_count", ""
    spot.save(update_fields=["dead_reason", "cards"])
    audit_record(
        actor=by,
        action=AuditAction.HAND_SPOT_DEAD,
        target=hand,
        payload={"seat": seat, "reason": "wrong_card_count"},
    )
    return spot


def _spot(hand: Hand, seat: int) -> Spot:
    spot = hand.spots.filter(seat=seat).first()
    if spot is None:
        raise DomainError(f"Seat {seat} has no spot in hand {hand.number}.", field="seat")
    return spot


def _rules(hand: Hand) -> TableRules:
    """The engine's view of the settings version the hand started under (R17)."""
    return table_rules.table_rules(hand.table, hand.settings)


def _spot_fee(hand: Hand) -> Decimal:
    return spot_fee(RakeMode(hand.settings.rake_mode), hand.settings.rake_amount)
