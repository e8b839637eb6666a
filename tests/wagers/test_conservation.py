"""R15 over hundreds of random hands played through the services on both kinds of table:
money is conserved across the stacks, the DP's bank, the house and the fee ledger, every stack
is its ledger and never negative, and every stored settlement is what ``manage.py
settle_round`` answers for its stored round.

Each example builds its own cardroom (random table settings, players with random buy-ins) and
plays a few hands on each table: random wagers within the limits, some that R7 refuses, cards
entered by the dealer or dealt by the system, random decisions and raises up to (and past)
the cap of R8, the occasional dead spot, misdeal, second settle and correction.

Each test plays its own evenings (the ``evenings`` fixture), so either passes alone and in any
order: the property with the Hypothesis profile's number of examples, and the check that the
random hands go everywhere with a fixed, derandomized set of them.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from types import SimpleNamespace
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import Conflict, DomainError
from engine.cards import CARD_NAMES, DECK, parse_hand
from engine.checks import raise_cap_multiple
from engine.fees import dealer_fee, spot_fee
from engine.hands import flush_key, flush_size
from rake.models import FeeEntry
from tables.models import HouseBankEntry, Seating, StackEntry, Table
from tables.rack_selectors import rack_value_by_the_books
from tables.selectors import current_settings
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player, seating_sit_out
from tables.services.sessions import table_open
from tests.conftest import an_administrator, examples
from tests.racks import TEST_RACK, rack_opening_count
from wagers import services
from wagers.models import Hand, Settlement
from wagers.selectors import settlement_in_force

from .support import Books, draw_won_by, settle_round_command, total

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

D = Decimal
ZERO = D("0.00")
MISDEALS = ("dealer_card_count", "shuffler_fault")


@dataclass
class World:
    tables: list[Table]
    seen: Counter[str]  # what the random hands went through, over the test's examples
    deposited: Decimal = ZERO  # every chip bought in
    rng: random.Random = field(default_factory=random.Random)  # cards, decisions, events
    stopped: set[int] = field(default_factory=set)  # tables where no DP accepts (R16)


#: What each house-banked table's rack opens with (``tests.racks``).
RACK_OPENED = sum(Decimal(d) * n for d, n in TEST_RACK.items())


def chance(world: World, percent: int) -> bool:
    """Rare events and decisions come from the example's seeded generator, at the rates
    given (hypothesis leans towards its first and simplest choices)."""
    return world.rng.randrange(100) < percent


def amounts(low: Decimal, high: Decimal, unit: Decimal) -> st.SearchStrategy[Decimal]:
    return st.integers(0, int((high - low) / unit)).map(lambda n: low + n * unit)


# --- the world -------------------------------------------------------------------------------


def build_world(data, supervisor, dealer, rng: random.Random, name: str, seen) -> World:
    room = cardroom_create(name=name, by=an_administrator())
    world = World(tables=[], seen=seen, rng=rng)
    for banking in ("designated_player", "house"):
        values = {
            "ante_min": data.draw(st.sampled_from(["3", "5", "10"])),
            "ante_max": data.draw(st.sampled_from(["25", "100"])),
            "bonus_max": data.draw(st.sampled_from(["5", "25"])),
            "chip_unit": data.draw(st.sampled_from(["1", "0.50"])),
            "bonus_mode": data.draw(st.sampled_from(["versus_dp", "paytable"])),
            "max_aggregate_payout": data.draw(st.sampled_from([None, "20000", "40"])),
        }
        if banking == "designated_player":
            values["rake_mode"] = data.draw(
                st.sampled_from(["all_players", "players_not_dp", "dp_only", "none"])
            )
            values["rake_amount"] = data.draw(st.sampled_from(["0", "1", "2", "5"]))
        table = table_create(
            cardroom=room, name=banking, banking=banking, settings=values, by=supervisor
        )
        table_open(table=table, dealer=dealer, by=supervisor)
        if banking == "house":
            rack_opening_count(table, by=supervisor)
        seats = data.draw(st.sets(st.integers(1, 7), min_size=2, max_size=7))
        for seat in sorted(seats):
            buy_in = data.draw(st.sampled_from(["300", "1500", "60", "20"]))
            player = player_create(cardroom=room, name=f"P{seat}", by=dealer)
            seat_player(table=table, seat=seat, player=player, buy_in=buy_in, by=dealer)
            world.deposited += D(buy_in)
        world.tables.append(table)
    return world


# --- one random hand -------------------------------------------------------------------------


def play_hand(data, world: World, table: Table, dealer, supervisor) -> Hand | None:
    hand = start_hand(world, table, dealer)
    if hand is None:
        return None
    settings_ = hand.settings
    fee = D(spot_fee(settings_.rake_mode, int(settings_.rake_amount * 100))) / 100
    unit = settings_.chip_unit
    world.seen[f"hand at a {table.banking} table"] += 1
    place_wagers(data, world, hand, table, dealer, fee, unit)
    if not hand.spots.exists():
        services.hand_cancel(hand=hand, by=dealer)
        world.seen["hand cancelled"] += 1
        return hand
    if misdealt(world, hand, dealer):
        return hand
    for spot in hand.spots.all():
        if chance(world, 5):
            services.spot_declare_dead(hand=hand, seat=spot.seat, by=dealer)
            world.seen["spot dead for a wrong count"] += 1
    deal(world, hand, dealer)
    if misdealt(world, hand, dealer):
        return hand
    decide(world, hand, dealer, fee)
    if misdealt(world, hand, dealer):
        return hand
    settlement = services.hand_settle(hand=hand, by=dealer)
    statuses = Counter(line["dead_reason"] for line in settlement.result["spots"])
    world.seen["spot dead for the DP's funds"] += statuses["dealer_funds"]
    if chance(world, 15):  # idempotent: the same settlement, nothing moves
        books = Books.now()
        assert services.hand_settle(hand=hand, by=dealer).pk == settlement.pk
        assert Books.now() == books
        world.seen["second settle"] += 1
    if chance(world, 12):
        correct(world, hand, supervisor)
    return hand


def start_hand(world: World, table: Table, dealer) -> Hand | None:
    if table.banking == "house":
        return services.hand_start(table=table, by=dealer)
    settings_ = current_settings(table)
    least = max(
        settings_.dp_min_bank,
        D(dealer_fee(settings_.rake_mode, int(settings_.rake_amount * 100))) / 100,
    )
    # A seat that cannot put the DP's fee in action sits out, so the rotation passes it by.
    for seating in Seating.objects.filter(table=table, left_at=None, sitting_out=False):
        if seating.stack < least:
            seating_sit_out(seating=seating, by=dealer)
    candidates = list(
        Seating.objects.filter(table=table, left_at=None, sitting_out=False).values_list(
            "seat", flat=True
        )
    )
    if not candidates:
        world.stopped.add(table.pk)
        return None
    draw = draw_won_by(table, world.rng.choice(sorted(candidates)))
    bank = world.rng.choice([None, None, "1", "5", "40"])
    for dp_bank in (bank, None):
        try:
            return services.hand_start(table=table, by=dealer, dp_bank=dp_bank, draw_cards=draw)
        except Conflict as error:  # nobody eligible accepts: the game stops (R16)
            assert error.field == "designated_player", error.message
            world.stopped.add(table.pk)
            world.seen["game stopped: no DP"] += 1
            return None
        except DomainError as error:  # a bank above the DP's stack
            assert (error.field, dp_bank) == ("dp_bank", bank), error.message
            world.seen["DP bank refused"] += 1
    raise AssertionError("unreachable")


def place_wagers(
    data, world: World, hand: Hand, table: Table, dealer, fee: Decimal, unit: Decimal
) -> None:
    settings_ = hand.settings
    seated = list(
        Seating.objects.filter(table=table, left_at=None, sitting_out=False).order_by("seat")
    )
    taken = {s.seat for s in Seating.objects.filter(table=table, left_at=None)}
    if hand.dp_seating_id:
        taken.add(hand.dp_seating.seat)
    empty = [n for n in range(1, table.seat_count + 1) if n not in taken]
    for seating in seated:
        if seating.pk == hand.dp_seating_id or not chance(world, 75):
            continue
        spots = 2 if empty and chance(world, 20) else 1
        low = settings_.ante_min * (2 if spots == 2 else 1)
        for index in range(spots):
            seat = seating.seat if index == 0 else empty.pop(0)
            ante = data.draw(amounts(low, settings_.ante_max, unit))
            bonuses = {
                name: data.draw(
                    st.sampled_from([ZERO, settings_.bonus_min])
                    | amounts(settings_.bonus_min, settings_.bonus_max, unit)
                )
                for name in ("flush_bonus", "straight_flush_bonus")
            }
            seating.refresh_from_db()
            mine = list(hand.spots.filter(seating=seating))
            stakes = ante + sum(bonuses.values())
            reserve = sum((s.ante + fee for s in mine), ZERO) + ante + fee
            full = hand.spots.count() >= 6
            try:
                services.wager_place(
                    hand=hand, seating=seating, ante=ante, seat=seat, by=dealer, **bonuses
                )
            except DomainError as error:  # R7: the stack does not cover the hand; R1: full
                assert full or seating.stack < stakes + reserve, error.message
                assert error.field == ("seat" if full else "ante"), error.message
                world.seen["seventh spot refused" if full else "wager refused (R7)"] += 1
                break
            assert not full and seating.stack >= stakes + reserve
            world.seen["second spot" if index else "spot"] += 1


def deal(world: World, hand: Hand, dealer) -> None:
    """Dealt by the system, or entered by the dealer from a physical deal."""
    live = list(hand.spots.filter(dead_reason="").order_by("seat"))
    if chance(world, 50):
        services.hand_deal(hand=hand, by=dealer)
        world.seen["cards dealt by the system"] += 1
        return
    world.seen["cards entered by the dealer"] += 1
    deck = [CARD_NAMES[c] for c in world.rng.sample(DECK, len(DECK))]
    if chance(world, 30):
        # A deck stacked by suit and cut: long flushes and runs, so that the raise caps of
        # 2× and 3× (R8), the top paytable lines (R10) and the payout cap (R11) come up.
        deck.sort(key=lambda card: card[1])
        cut = world.rng.randrange(len(deck))
        deck = deck[cut:] + deck[:cut]
        world.seen["stacked deck"] += 1
    hands = [" ".join(deck[7 * i : 7 * (i + 1)]) for i in range(len(live) + 1)]
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=hands[0],
        spot_cards={spot.seat: cards for spot, cards in zip(live, hands[1:], strict=True)},
        by=dealer,
    )


def decide(world: World, hand: Hand, dealer, fee: Decimal) -> None:
    live = list(hand.spots.filter(dead_reason="").order_by("seat"))
    world.rng.shuffle(live)
    for spot in live:
        if chance(world, 3):  # a wrong count seen before the spot acts (R14)
            services.spot_declare_dead(hand=hand, seat=spot.seat, by=dealer)
            world.seen["spot dead for a wrong count"] += 1
            continue
        decision = world.rng.choice(["raise", "raise", "raise", "fold", "walked_away"])
        if decision == "raise":
            # R8: the cap for the spot's flush (flush_key's size); sometimes one past it.
            size = flush_size(flush_key(parse_hand(spot.cards, field="cards")))
            cap = spot.ante * raise_cap_multiple(size)
            amount = world.rng.choice([spot.ante, spot.ante, cap, cap, cap + spot.ante])
            stack = Seating.objects.get(pk=spot.seating_id).stack
            fees = fee * hand.spots.filter(seating_id=spot.seating_id, dead_reason="").count()
            allowed = amount <= cap and amount + fees <= stack
            try:
                services.spot_decide(
                    hand=hand, seat=spot.seat, decision="raise", raise_amount=amount, by=dealer
                )
            except DomainError as error:
                assert not allowed, error.message
                assert error.field == "raise_amount"
                world.seen[
                    "raise refused (R8 cap)" if amount > cap else "raise refused (stack)"
                ] += 1
                decision = "fold"
            else:
                assert allowed
                world.seen[f"raise of {amount / spot.ante:.0f}x"] += 1
                continue
        services.spot_decide(hand=hand, seat=spot.seat, decision=decision, by=dealer)


def misdealt(world: World, hand: Hand, dealer) -> bool:
    if not chance(world, 3):
        return False
    reason = world.rng.choice(MISDEALS)
    services.hand_declare_misdeal(hand=hand, reason=reason, by=dealer)
    world.seen["misdeal"] += 1
    world.seen[f"misdeal ({reason})"] += 1
    return True


def correct(world: World, hand: Hand, supervisor) -> None:
    """Replace one hand of the round in force with cards nobody held (a misread)."""
    round_ = settlement_in_force(hand).round
    holders = [("dealer", round_["dealer"].get("cards"))] + [
        (spot["seat"], spot.get("cards")) for spot in round_["spots"]
    ]
    holders = [(who, cards) for who, cards in holders if cards]
    used = set()
    for _, cards in holders:
        used |= set(cards.split())
    unused = [CARD_NAMES[c] for c in DECK if CARD_NAMES[c] not in used]
    if len(unused) < 7:
        return
    who, _ = world.rng.choice(holders)
    cards = " ".join(world.rng.sample(unused, 7))
    target = {"dealer_cards": cards} if who == "dealer" else {"spot_cards": {who: cards}}
    books = Books.now()
    try:
        services.hand_correct(
            hand=hand,
            corrects=hand.settlements.latest("entry").pk,
            by=supervisor,
            reason="Misread at the table.",
            **target,
        )
    except DomainError as error:
        # A stack that would go negative, a correction that changes nothing, or a raise the
        # corrected (smaller) flush does not allow (R8): the engine refuses that round.
        # (named by the seat's decision to correct with it: ``decisions.<seat>``).
        raise_over_cap = "(R8)" in error.message and (
            error.field.endswith("].raise") or error.field.startswith("decisions.")
        )
        assert error.field in ("stack", "cards") or raise_over_cap, error.message
        assert Books.now() == books
        world.seen[f"correction refused ({'raise' if raise_over_cap else error.field})"] += 1
    else:
        world.seen["correction"] += 1


# --- the invariants --------------------------------------------------------------------------


def assert_conserved(world: World) -> None:
    tables = [t.pk for t in world.tables]
    seatings = Seating.objects.filter(table__in=tables)
    assert not Hand.objects.filter(table__in=tables, status__in=Hand.IN_PROGRESS).exists()
    ledger: dict[int, Decimal] = {}
    for seating, amount in StackEntry.objects.filter(seating__in=seatings).values_list(
        "seating", "amount"
    ):
        ledger[seating] = ledger.get(seating, ZERO) + amount
    for seating in seatings:
        assert seating.stack >= 0
        assert seating.stack == ledger.get(seating.pk, ZERO), seating
    stacks = total(seatings, "stack")
    fees = total(FeeEntry.objects.filter(table__in=tables), "amount")
    house = total(
        Settlement.objects.filter(hand__table__in=tables, hand__table__banking="house"),
        "dealer_net",
    )
    assert stacks + fees + house == world.deposited, (stacks, fees, house, world.deposited)
    for table in world.tables:  # the rack by the books: its count and every move since
        if table.banking == "house":
            moved = total(HouseBankEntry.objects.filter(table=table), "amount")
            assert rack_value_by_the_books(table) == RACK_OPENED + moved


def assert_settled_as_the_command_says(hand: Hand) -> None:
    for settlement in hand.settlements.all():
        assert settle_round_command(settlement.round) == settlement.result
        # R15 on the stored lines: spots + dealer + fees = 0, entry by entry.
        nets = total(settlement.spots.all(), "net")
        assert nets + settlement.dealer_net + settlement.house_rake == 0
        fees = total(FeeEntry.objects.filter(booking__settlement=settlement), "amount")
        assert fees == settlement.house_rake


# --- the evenings ------------------------------------------------------------------------------

# What every run of evenings has: no deadline (an evening takes a second or so) and no example
# database; fixtures shared by the examples (one transaction, many cardrooms).
EVENINGS = settings(
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


@pytest.fixture
def evenings(supervisor, dealer):
    """``evenings(data, seen)`` plays one example's evening: a new cardroom, hands on both of its
    tables, the invariants checked after each, what the hands went through counted in
    ``seen``. The examples of one test share the test's database transaction: each evening
    has a cardroom of its own."""
    rooms = itertools.count(1)

    def play(data, seen: Counter[str]) -> None:
        # One seeded generator for the cards, so that an example replays exactly: the system's
        # CSPRNG deal (``secrets.SystemRandom``) is swapped for it while the evening lasts.
        rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
        seeded = SimpleNamespace(SystemRandom=lambda: rng)
        with mock.patch.object(services.play, "secrets", seeded):
            world = build_world(data, supervisor, dealer, rng, f"Room {next(rooms)}", seen)
            assert_conserved(world)
            for _ in range(data.draw(st.integers(5, 7))):
                for table in world.tables:
                    if table.pk in world.stopped:
                        continue
                    hand = play_hand(data, world, table, dealer, supervisor)
                    if hand is None:
                        continue
                    assert_conserved(world)
                    assert_settled_as_the_command_says(hand)

    return play


# Each example is a cardroom's evening, 10 to 14 hands: 20 in the ci profile, 5 in dev.
@settings(EVENINGS, max_examples=examples(20))
@given(data=st.data())
def test_r15_money_is_conserved_and_every_settlement_is_settle_rounds_answer(data, evenings):
    seen: Counter[str] = Counter()
    evenings(data, seen)
    assert seen["hand at a designated_player table"] + seen["hand at a house table"] > 0


EVERYWHERE = (
    "hand at a house table",
    "cards dealt by the system",
    "cards entered by the dealer",
    "spot dead for a wrong count",
    "spot dead for the DP's funds",
    "misdeal",
    "second spot",
    "wager refused (R7)",
    "raise refused (R8 cap)",
    "correction",
    "second settle",
)


def test_r15_the_random_hands_are_hundreds_and_go_everywhere(evenings):
    """The generator of the property above reaches every path that matters, in 20 evenings
    that are the same on every run (derandomized), whichever the profile: at least 200 hands,
    and every path of EVERYWHERE at least once. Conservation is checked on the way too."""
    seen: Counter[str] = Counter()

    @settings(EVENINGS, max_examples=20, derandomize=True)
    @given(data=st.data())
    def twenty_evenings(data):
        evenings(data, seen)

    twenty_evenings()
    hands = seen["hand at a designated_player table"] + seen["hand at a house table"]
    summary = ", ".join(f"{what}: {n}" for what, n in sorted(seen.items()))
    assert hands >= 200, summary
    for path in EVERYWHERE:
        assert seen[path], f"no random hand went through {path!r}: {summary}"
    print(summary)
