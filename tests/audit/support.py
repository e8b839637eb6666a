"""Helpers the audit tests share (fixtures are in conftest.py; the clock is tests/clock.py):
getting past the append-only triggers to play the attacker, running ``verify_audit``, and
playing hands."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection

from core.errors import Conflict, DomainError
from core.roles import FLOOR_SUPERVISOR
from tables.models import RotationRecord, Seating, Table
from tables.rotation import game_restart
from tables.services.stacks import stack_add
from tests import runtime_role
from tests.clock import T0 as T0  # re-exported: the audit tests start their clock there
from tests.clock import Clock
from tests.racks import rack_counted_for_play
from wagers import services
from wagers.models import Hand, Settlement

NEW_YORK = ZoneInfo("America/New_York")


def local(*parts: int, microsecond: int = 0) -> datetime:
    """A moment given in New York wall-clock time: ``local(2024, 3, 2, 5, 59, 59)``."""
    return datetime(*parts, microsecond=microsecond, tzinfo=NEW_YORK)


def new_york_gaming_day(at: datetime, starts: int = 6) -> date:
    """The test's own reckoning of a gaming day: New York wall-clock time, shifted back by the
    day-start hour."""
    return (at.astimezone(NEW_YORK) - timedelta(hours=starts)).date()


# --- the attacker ----------------------------------------------------------------------------


@contextmanager
def past_append_only() -> Iterator[None]:
    """Switch the append-only triggers (core.db) off on this connection, and back on.

    PostgreSQL: triggers do not fire under ``session_replication_role = replica``, which a
    superuser sets (the run's runtime role switches to one: tests/runtime_role.py). SQLite has
    no such switch: drop the triggers and re-create them."""
    if connection.vendor == "postgresql":
        with runtime_role.as_superuser(), connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = replica")
            try:
                yield
            finally:
                cursor.execute("SET session_replication_role = DEFAULT")
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        triggers = cursor.fetchall()
        assert triggers, "the append-only triggers are installed"
        for name, _ in triggers:
            cursor.execute(f'DROP TRIGGER "{name}"')
        try:
            yield
        finally:
            for _, sql in triggers:
                cursor.execute(sql)


def raw(sql: str, params: list | tuple = ()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def verify_audit(*args: str) -> tuple[int, str]:
    """Run ``manage.py verify_audit``: its exit status and what it printed."""
    out = io.StringIO()
    try:
        call_command("verify_audit", *args, stdout=out, stderr=out)
    except SystemExit as exit_:
        return int(exit_.code), out.getvalue()
    return 0, out.getvalue()


# --- playing hands ---------------------------------------------------------------------------

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def seated(table: Table) -> list[Seating]:
    return list(
        Seating.objects.filter(table=table, left_at=None).select_related("player").order_by("seat")
    )


def draw_cards(table: Table, rng: random.Random) -> dict[int, str] | None:
    """Cards for the session's high-card draw (R16), or None once the session has had it."""
    if RotationRecord.objects.filter(
        table=table, session__closed_at=None, designated_player__isnull=False
    ).exists():
        return None
    cards = rng.sample(DECK, 7)
    return {
        s.seat: cards[i] for i, s in enumerate(seated(table)) if not (s.sitting_out or s.dp_waiver)
    }


@dataclass
class Plan:
    """What happens in one hand."""

    misdeal: str = ""  # dealer_card_count or shuffler_fault
    misdeal_after_deal: bool = False
    dead_before_deal: int = 0  # how many spots are declared dead before the deal
    dead_after_deal: int = 0  # ... and after it, before they act
    dp_bank: str | None = None  # None: the DP's whole stack


def random_plan(rng: random.Random) -> Plan:
    roll = rng.random()
    if roll < 0.12:
        return Plan(
            misdeal=rng.choice(["dealer_card_count", "shuffler_fault"]),
            misdeal_after_deal=rng.random() < 0.5,
        )
    return Plan(
        dead_before_deal=int(rng.random() < 0.15),
        dead_after_deal=int(rng.random() < 0.15),
        dp_bank=rng.choice([None, None, str(rng.randint(3, 40))]),
    )


def _start(table: Table, by, bank, rng: random.Random) -> Hand:
    """Start a hand; where a failed rotation window stopped the game (R16, 2026), a floor
    supervisor restarts it first, as the cardroom would."""
    draw = draw_cards(table, rng) if table.banking == "designated_player" else None
    rack_counted_for_play(table)
    try:
        return services.hand_start(table=table, by=by, dp_bank=bank, draw_cards=draw)
    except Conflict as refused:
        if refused.field != "game_stop":
            raise
    supervisor = User.objects.filter(groups__name=FLOOR_SUPERVISOR).order_by("pk").first()
    game_restart(table=table, note="The rotation was explained to the players.", by=supervisor)
    return services.hand_start(table=table, by=by, dp_bank=bank, draw_cards=draw)


def play_hand(
    table: Table,
    *,
    rng: random.Random,
    by,
    clock: Clock,
    settle_at: datetime,
    plan: Plan | None = None,
) -> Hand:
    """Play one hand to its end, its last step (settlement or misdeal) at ``settle_at``:
    a few steps, a few seconds apart, before it. Cards come from a seeded shuffle."""
    plan = plan or Plan()
    clock.set(settle_at - timedelta(seconds=50))
    for seating in seated(table):  # chips enough for a 1× raise, bonuses and the fees (R7)
        if seating.stack < 300:
            stack_add(seating=seating, amount="500", by=by)
    clock.advance(seconds=5)
    bank = plan.dp_bank
    hand = _start(table, by, bank, rng)
    clock.advance(seconds=5)
    players = [s for s in seated(table) if s.pk != hand.dp_seating_id]
    for seating in players:
        flush_bonus = rng.choice([0, 0, rng.randint(1, 10)])
        straight_bonus = rng.choice([0, 0, rng.randint(1, 5)])
        services.wager_place(
            hand=hand,
            seating=seating,
            ante=rng.randint(5, 30),
            flush_bonus=flush_bonus,
            straight_flush_bonus=straight_bonus,
            by=by,
        )
    clock.advance(seconds=5)
    seats = [s.seat for s in players]
    rng.shuffle(seats)
    dead = seats[: plan.dead_before_deal]
    for number in dead:
        services.spot_declare_dead(hand=hand, seat=number, by=by)
    if plan.misdeal and not plan.misdeal_after_deal:
        clock.set(settle_at)
        return _done(services.hand_declare_misdeal(hand=hand, reason=plan.misdeal, by=by))
    clock.advance(seconds=5)
    live = [number for number in sorted(seats) if number not in dead]
    cards = rng.sample(DECK, 7 * (len(live) + 1))
    hands = [" ".join(cards[7 * i : 7 * (i + 1)]) for i in range(len(live) + 1)]
    services.hand_cards_enter(
        hand=hand, dealer_cards=hands[0], spot_cards=dict(zip(live, hands[1:], strict=True)), by=by
    )
    clock.advance(seconds=5)
    if plan.misdeal:
        clock.set(settle_at)
        return _done(services.hand_declare_misdeal(hand=hand, reason=plan.misdeal, by=by))
    later_dead = [n for n in live if n not in dead][: plan.dead_after_deal]
    for number in later_dead:
        services.spot_declare_dead(hand=hand, seat=number, by=by)
    clock.advance(seconds=5)
    for spot in hand.spots.filter(dead_reason="").order_by("seat"):
        if rng.random() < 0.3:
            services.spot_decide(hand=hand, seat=spot.seat, decision="fold", by=by)
        else:
            services.spot_decide(
                hand=hand, seat=spot.seat, decision="raise", raise_amount=spot.ante, by=by
            )
    clock.set(settle_at)
    return _done(services.hand_settle(hand=hand, by=by))


def _done(settlement: Settlement) -> Hand:
    return Hand.objects.get(pk=settlement.hand_id)


def correct_hand(hand: Hand, *, rng: random.Random, by) -> Settlement | None:
    """A floor supervisor corrects the dealer's cards of a settled hand; None if no new cards
    tried change the result."""
    in_force = hand.settlements.exclude(kind="reversal").order_by("-entry").first()
    used = set(in_force.round["dealer"].get("cards", "").split())
    for spot in in_force.round["spots"]:
        used |= set(spot.get("cards", "").split())
    unused = [card for card in DECK if card not in used]
    for _ in range(20):
        try:
            return services.hand_correct(
                hand=hand,
                corrects=hand.settlements.latest("entry").pk,
                by=by,
                reason="The dealer's cards were entered wrong",
                dealer_cards=" ".join(rng.sample(unused, 7)),
            )
        except DomainError:
            continue
    return None
