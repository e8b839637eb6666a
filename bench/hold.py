"""How long a month's hold against theoretical takes (``compliance.hold.hold_report``).

    .venv/bin/python -m bench.hold [--hands 20000] [--spots 5]

Builds a fresh SQLite database in a temporary folder (``DATABASE_URL`` is set for this run
only), one house-banked table through the services, then ``--hands`` settled hands with
``--spots`` spots each, inserted in bulk (the bench measures the report, not play): each spot
antes, most raise, some bet a bonus; results are random but seeded. Then it times the month's
report, best of three, and prints a line for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Django is set up in main(), before the models are imported
    from django.contrib.auth.models import User

    from tables.models import Seating, Table, TableSession, TableSettings
    from wagers.models import Hand, Settlement, SpotSettlement, WagerSettlement

SEED = 20261201
START = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def build(hands: int, spots: int) -> tuple[Table, int]:
    """The table and how many wager rows it has."""
    from tables import selectors
    from wagers.models import Spot, SpotSettlement, WagerSettlement

    rng = random.Random(SEED)
    table, session, seatings, dealer = _seated_table(spots)
    version = selectors.current_settings(table)
    made, settlements = _settled_hands(table, session, version, dealer, hands)
    spot_rows = Spot.objects.bulk_create(
        Spot(hand=hand, seat=s.seat, seating=s, player_id=s.player_id, ante=Decimal(10))
        for hand in made
        for s in seatings
    )
    lines = SpotSettlement.objects.bulk_create(
        SpotSettlement(
            settlement=settlements[i // spots],
            spot=spot,
            seat=spot.seat,
            status="played",
            rake=Decimal(0),
            net=Decimal(0),
            paid_back=Decimal(0),
        )
        for i, spot in enumerate(spot_rows)
    )
    wagers = []
    for line in lines:
        wagers.append(_wager(line, "ante", 10, rng))
        if rng.random() < 0.68:
            wagers.append(_wager(line, "raise", 10, rng))
        if rng.random() < 0.5:
            wagers.append(_wager(line, "flush_bonus", 5, rng))
        if rng.random() < 0.3:
            wagers.append(_wager(line, "straight_flush_bonus", 5, rng))
    WagerSettlement.objects.bulk_create(wagers, batch_size=5000)
    return table, len(wagers)


def _seated_table(spots: int) -> tuple[Table, TableSession, list[Seating], User]:
    """A house-banked table, open, with a player at each of ``spots`` seats, and its dealer."""
    from django.contrib.auth.models import Group, User

    from core.roles import ADMINISTRATOR, DEALER, FLOOR_SUPERVISOR
    from tables.services.cardrooms import cardroom_create
    from tables.services.configuration import table_create
    from tables.services.seating import player_create, seat_player
    from tables.services.sessions import table_open

    floor = User.objects.create_user("floor")
    floor.groups.add(Group.objects.get_or_create(name=FLOOR_SUPERVISOR)[0])
    dealer = User.objects.create_user("dealer")
    dealer.groups.add(Group.objects.get_or_create(name=DEALER)[0])
    admin = User.objects.create_user("admin")
    admin.groups.add(Group.objects.get_or_create(name=ADMINISTRATOR)[0])
    cardroom = cardroom_create(name="Bench", by=admin)
    table = table_create(cardroom=cardroom, name="House", banking="house", by=floor)
    session = table_open(table=table, dealer=dealer, by=floor)
    seatings = [
        seat_player(
            table=table,
            seat=seat,
            player=player_create(cardroom=cardroom, name=f"P{seat}", by=dealer),
            by=dealer,
        )
        for seat in range(1, spots + 1)
    ]
    return table, session, seatings, dealer


def _settled_hands(
    table: Table, session: TableSession, version: TableSettings, dealer: User, hands: int
) -> tuple[list[Hand], list[Settlement]]:
    """``hands`` settled hands over 28 days, each with its original settlement."""
    from wagers.models import Hand, Settlement

    step = timedelta(days=28) / hands
    made = Hand.objects.bulk_create(
        Hand(
            table=table,
            session=session,
            number=n + 1,
            settings=version,
            status="settled",
            started_by=dealer,
            started_at=START + n * step,
            settled_at=START + n * step,
        )
        for n in range(hands)
    )
    settlements = Settlement.objects.bulk_create(
        Settlement(
            hand=hand,
            entry=1,
            kind="original",
            round={},
            result={},
            house_rake=Decimal(0),
            dealer_net=Decimal(0),
            created_by=dealer,
            created_at=START + n * step,
        )
        for n, hand in enumerate(made)
    )
    return made, settlements


def _wager(line: SpotSettlement, name: str, stake: int, rng: random.Random) -> WagerSettlement:
    from wagers.models import WagerSettlement

    net = rng.choice((-stake, -stake, stake, 0))
    return WagerSettlement(
        spot_settlement=line,
        wager=name,
        stake=Decimal(stake),
        outcome="win" if net > 0 else "lose" if net < 0 else "push",
        net=Decimal(net),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--spots", type=int, default=5)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="cardroom-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.test")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from compliance.hold import hold_report, month_to_date_period

    table, rows = build(args.hands, args.spots)
    period = month_to_date_period(table.cardroom, datetime(2024, 3, 31).date())
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        report = hold_report(table, period)
        best = min(best, time.perf_counter() - began)
    assert report.total.hands == args.hands
    print(
        f"| month to date, {args.hands:,} hands × {args.spots} spots ({rows:,} wagers) | "
        f"{best:.2f} s | {rows / best:,.0f} wagers/s |"
    )


if __name__ == "__main__":
    main()
