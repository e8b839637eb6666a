"""The demo's gaming day: yesterday's, played and closed on both demo tables before they open
today, so that the floor, count and compliance screens have a day to show.

Demo Cardroom (Los Angeles; gaming day from 06:00; shifts day 06:00, swing 14:00, grave 22:00):

- house-banked table: opening count $4,600; Devon buys in $250 cash, Emery $200 in chips; two
  hands (the house −$10, then +$55); a fill of $500 (F-000001), a fill voided (F-000002), a
  credit of $500 (C-000001); closing count $4,395 (= 4600 − 250 − 10 + 55 + 500 − 500), the
  table closes at 13:30. Drop: $250 cash, counted exactly. Win 4395 − 4600 + 500 − 500 + 250
  = $45 = the house's result in the hands; hold 18.00 %.
- designated-player table ($1 fee per spot and DP): two hands in the day shift ($6 of fees;
  the count team finds $5: a $1 variance, explained and signed off), one in swing ($3,
  counted exactly); it closes at 16:00.
- the cage (``cage.demo_cage``): the cashier opens it at 06:30 with a $20,000 float, the
  cardroom's chips are issued into it, Harper Lane buys $3,500 and $7,000 in chips there (the
  MTL, then a CTR), and the cashier closes it at 21:30; today the cashier opens it again.
- every shift closed by the floor supervisor; the day closed by compliance.

Every second person signs as staff do, with their own password (``demo_signature``): the dealer
who counts a rack, each person of a slip's chain (the cashier, the dealer, the floor
supervisor), the second counter, the witness of the void; the
supervisor who verifies, signs off and closes, and compliance closing the day, sign too.

Played through the services, each step at its moment of the day (the clock is set for the
services while the day is loaded), so everything is in the audit log as it would be. Loaded
once: when the demo cardroom already exists, nothing is played again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from patrons import exclusions, incidents
from patrons.ctr_filer import ctr_filer_set
from patrons.identity import IdentityInput
from patrons.models import Cardroom, Player
from tables import selectors as table_selectors
from tables.demo import (
    DEMO_CARDROOM,
    DEMO_TABLES,
    DemoUser,
    demo_signature,
    load_demo_tables,
    load_demo_users,
)
from tables.models import Seating, Table
from tables.services.cardrooms import cardroom_create, cardroom_shifts_set
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_close, table_open
from tables.signatures import SignatureInput
from wagers import services as hand_services
from wagers.services import incidents as incidents_at_tables

from . import selectors, services
from .demo_cage import demo_cage_close, demo_cage_open, demo_cage_sell
from .demo_filing import FILER, HARPER
from .demo_slips import demo_slip_signed_through, demo_slips

DEMO_SHIFTS = [("day", time(6)), ("swing", time(14)), ("grave", time(22))]
DEALER_QUALIFIES = "Ks 9s 4s 2c 7h 8c 3c"
WINNER = "Ah Th 6h 2h Jd 5c 9c"
LOSER = "Qd 8d 5d As 6c 4h 3s"


class _Clock:
    """What ``timezone.now`` answers while the day is played: moments of the demo day."""

    def __init__(self, day_start: datetime) -> None:
        self.day_start = day_start
        self.now = day_start

    def at(self, hhmm: str, *, days: int = 0) -> None:
        hours, minutes = (int(part) for part in hhmm.split(":"))
        local = datetime.combine(
            self.day_start.date() + timedelta(days=days),
            time(hours, minutes),
            tzinfo=self.day_start.tzinfo,
        )
        self.now = min(local, _real_now())


_real_now = timezone.now


@contextmanager
def _clock(day_start: datetime) -> Iterator[_Clock]:
    clock = _Clock(day_start)
    timezone.now = lambda: clock.now  # the services read the time through the module
    try:
        yield clock
    finally:
        timezone.now = _real_now


@transaction.atomic
def load_demo() -> list[DemoUser]:
    """The demo: users, yesterday's gaming day (once), and the tables open today with
    players seated; running it again changes nothing."""
    users = load_demo_users()
    load_demo_day()
    _open_house_table_counted()
    cardroom = Cardroom.objects.filter(name=DEMO_CARDROOM).first()
    if cardroom is not None:
        demo_cage_open(cardroom, _people(), first=False)
    load_demo_tables()
    return users


def _open_house_table_counted() -> None:
    """Today the house-banked table opens with its rack counted (what the books say it holds),
    before anyone buys chips there; run again, an open table is left as it is."""
    name = next(name for name, banking, _ in DEMO_TABLES if banking == "house")
    table = Table.objects.filter(cardroom__name=DEMO_CARDROOM, name=name).first()
    if table is None or table_selectors.open_session(table) is not None:
        return
    people = _people()
    table_open(table=table, dealer=people["dealer"], by=people["floor"])
    book, _ = selectors.rack_by_the_books(table)
    services.inventory_count_record(
        table=table,
        kind="opening",
        chips=_in_chips(book or Decimal("4600"), table.cardroom.chip_denominations),
        counted_by=_signed(people["dealer"]),
        signature=_signed(people["floor"]),
        by=people["floor"],
    )


def _in_chips(amount: Decimal, denominations: list[str]) -> dict[str, int]:
    """An amount as chips, the largest first: what a rack holding it would be counted as."""
    pieces: dict[str, int] = {}
    for value in sorted(denominations, key=Decimal, reverse=True):
        count, amount = divmod(amount, Decimal(value))
        pieces[value] = int(count)
    return pieces


def load_demo_day() -> bool:
    """Play and close yesterday's gaming day, once (when the demo cardroom is new)."""
    if Cardroom.objects.filter(name=DEMO_CARDROOM).exists():
        return False
    zone = ZoneInfo("America/Los_Angeles")
    today = _real_now().astimezone(zone)
    day = (today - timedelta(hours=6)).date() - timedelta(days=1)
    with _clock(datetime.combine(day, time(6, 30), tzinfo=zone)) as clock:
        _play(clock)
    return True


def _people() -> dict[str, User]:
    names = ("floor", "dealer", "compliance", "count", "count2", "cashier", "admin")
    return {u.username: u for u in User.objects.filter(username__in=names)}


def _play(clock: _Clock) -> None:
    people = _people()
    floor, dealer = people["floor"], people["dealer"]
    cardroom = cardroom_create(
        name=DEMO_CARDROOM, time_zone="America/Los_Angeles", by=people["admin"]
    )
    cardroom_shifts_set(cardroom=cardroom, shifts=DEMO_SHIFTS, by=floor)
    demo_cage_open(cardroom, people, first=True)
    tables = {
        banking: table_create(cardroom=cardroom, name=name, banking=banking, by=floor)
        for name, banking, _ in DEMO_TABLES
    }
    house, dp = tables["house"], tables["designated_player"]
    clock.at("07:00")
    for table in (house, dp):
        table_open(table=table, dealer=dealer, by=floor)
    services.inventory_count_record(
        table=house,
        kind="opening",
        chips={"1": 100, "5": 100, "25": 80, "100": 20},
        counted_by=_signed(dealer),
        signature=_signed(floor),
        by=floor,
    )
    clock.at("07:05")
    _seat(house, 2, "Devon Hale", "250", "cash", dealer)
    _seat(house, 4, "Emery Quinn", "200", "chips", dealer)
    for seat, name in ((1, "Avery Stone"), (3, "Blake Moreno"), (5, "Casey Park")):
        _seat(dp, seat, name, "400", "chips", dealer)
    clock.at("08:00")
    _house_hand(house, dealer, {2: ("10", WINNER, "raise"), 4: ("10", LOSER, "fold")})
    _dp_hand(dp, dealer, draw_cards={1: "As", 3: "2c", 5: "3c"})
    clock.at("09:00")
    demo_slips(house, people)
    clock.at("10:00")
    _house_hand(house, dealer, {2: ("25", LOSER, "raise"), 4: ("5", WINNER, "fold")})
    _dp_hand(dp, dealer)
    clock.at("12:00")
    credit = services.slip_request(table=house, kind="credit", chips={"25": 20}, by=floor)
    demo_slip_signed_through(credit, people)
    clock.at("13:30")
    services.inventory_count_record(
        table=house,
        kind="closing",
        chips={"100": 20, "25": 80, "5": 70, "1": 45},
        counted_by=_signed(dealer),
        signature=_signed(floor),
        by=floor,
    )
    _law(cardroom, house, clock, people)
    clock.at("21:30")
    demo_cage_close(cardroom, people)
    _counts_and_closes(cardroom, house, dp, clock, people)


def _law(cardroom: Cardroom, house: Table, clock: _Clock, people: dict[str, User]) -> None:
    """The day under the law: a player on the MTL and then over the CTR line at
    the cage (an ID on file), a barred person on the cardroom's list, and a dispute followed
    up with surveillance and closed."""
    floor, compliance = people["floor"], people["compliance"]
    clock.at("08:30")
    harper = player_create(
        cardroom=cardroom,
        name="Harper Lane",
        identity=IdentityInput(
            date_of_birth=date(1976, 9, 14),
            id_type="driver_licence",
            id_number="N4418207",
            id_issuer="California",
            id_expires=date(2030, 9, 14),
            person=HARPER,
        ),
        by=floor,
    )
    ctr_filer_set(cardroom=cardroom, filer=FILER, by=compliance)
    demo_cage_sell(harper, Decimal("3500"), people["cashier"])
    clock.at("11:00")
    demo_cage_sell(harper, Decimal("7000"), people["cashier"])
    clock.at("11:15")
    barred = exclusions.ExclusionInput(
        kind="barred",
        name="Riley Cole",
        date_of_birth=date(1979, 2, 2),
        starts_on=clock.now.date(),
        reason="Past-posting at Table 2",
    )
    exclusions.exclusion_add(cardroom=cardroom, entry=barred, by=floor)
    clock.at("11:40")
    dispute = incidents_at_tables.incident_report(
        cardroom=cardroom,
        kind="dispute",
        table=house,
        players=[Player.objects.get(cardroom=cardroom, name="Devon Hale")],
        summary="Devon Hale disputes the payout of the second hand.",
        by=floor,
    )
    for kind, text, by in (
        ("surveillance_requested", "Review the 10:00 hand at Table 2.", floor),
        ("surveillance_findings", "The payout matched the hand as dealt.", compliance),
        ("closed", "Explained to the player; no adjustment.", floor),
    ):
        incidents.incident_follow_up(incident=dispute, kind=kind, text=text, by=by)


def _counts_and_closes(
    cardroom: Cardroom, house: Table, dp: Table, clock: _Clock, people: dict[str, User]
) -> None:
    floor, dealer = people["floor"], people["dealer"]
    count, count2 = people["count"], people["count2"]
    day = table_selectors.gaming_day(cardroom, clock.now)
    clock.at("14:30")
    services.drop_count_record(
        table=house,
        gaming_day=day,
        shift="day",
        cash={"100": 2, "50": 1},
        chips={},
        second_counter=_signed(count2),
        by=count,
    )
    short = services.drop_count_record(
        table=dp,
        gaming_day=day,
        shift="day",
        cash={},
        chips={"1": 5},
        second_counter=_signed(count2),
        note="Five $1 chips; the books say six.",
        by=count,
    )
    services.drop_variance_sign_off(
        count=short,
        reason="A $1 fee chip caught in the drop slot, found after the count; sent to the cage.",
        signature=_signed(floor),
        by=floor,
    )
    services.shift_close(
        cardroom=cardroom, gaming_day=day, shift="day", signature=_signed(floor), by=floor
    )
    clock.at("15:00")
    _dp_hand(dp, dealer)
    clock.at("16:00")
    table_close(table=dp, by=floor)
    clock.at("22:15")
    services.drop_count_record(
        table=dp,
        gaming_day=day,
        shift="swing",
        cash={},
        chips={"1": 3},
        second_counter=_signed(count2),
        by=count,
    )
    services.shift_close(
        cardroom=cardroom, gaming_day=day, shift="swing", signature=_signed(floor), by=floor
    )
    clock.at("06:01", days=1)
    services.shift_close(
        cardroom=cardroom, gaming_day=day, shift="grave", signature=_signed(floor), by=floor
    )
    compliance = people["compliance"]
    services.gaming_day_close(
        cardroom=cardroom, gaming_day=day, signature=_signed(compliance), by=compliance
    )


def _signed(user: User) -> SignatureInput:
    """The demo's person signs as themselves, with the demo password."""
    return demo_signature(user.get_username())


def _seat(table: Table, seat: int, name: str, buy_in: str, tender: str, by: User) -> None:
    player = Player.objects.filter(cardroom=table.cardroom, name=name).first()
    if player is None:
        player = player_create(cardroom=table.cardroom, name=name, by=by)
    seat_player(table=table, seat=seat, player=player, buy_in=buy_in, tender=tender, by=by)


def _house_hand(table: Table, by: User, spots: dict[int, tuple[str, str, str]]) -> None:
    hand = hand_services.hand_start(table=table, by=by)
    for seat, (ante, _, _) in spots.items():
        hand_services.wager_place(hand=hand, seating=_seating(table, seat), ante=ante, by=by)
    hand_services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_QUALIFIES,
        spot_cards={seat: cards for seat, (_, cards, _) in spots.items()},
        by=by,
    )
    for seat, (ante, _, decision) in spots.items():
        hand_services.spot_decide(
            hand=hand,
            seat=seat,
            decision=decision,
            raise_amount=ante if decision == "raise" else None,
            by=by,
        )
    hand_services.hand_settle(hand=hand, by=by)


def _dp_hand(table: Table, by: User, **start: object) -> None:
    """The two players who are not the DP ante $10: one raises with a winner, one folds."""
    hand = hand_services.hand_start(table=table, by=by, **start)  # type: ignore[arg-type]
    seats = sorted(
        Seating.objects.filter(table=table, left_at=None)
        .exclude(pk=hand.dp_seating_id or 0)
        .values_list("seat", flat=True)
    )
    spots = {seats[0]: ("10", WINNER, "raise"), seats[1]: ("10", LOSER, "fold")}
    for seat in spots:
        hand_services.wager_place(hand=hand, seating=_seating(table, seat), ante="10", by=by)
    hand_services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_QUALIFIES,
        spot_cards={seat: cards for seat, (_, cards, _) in spots.items()},
        by=by,
    )
    hand_services.spot_decide(hand=hand, seat=seats[0], decision="raise", raise_amount="10", by=by)
    hand_services.spot_decide(hand=hand, seat=seats[1], decision="fold", by=by)
    hand_services.hand_settle(hand=hand, by=by)


def _seating(table: Table, seat: int) -> Seating:
    return Seating.objects.get(table=table, seat=seat, left_at=None)
