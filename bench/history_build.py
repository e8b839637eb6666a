"""A year of a cardroom, generated in SQL (PostgreSQL only) for ``bench.history``.

Every row is a copy of a real one, a template the services wrote (a settled hand of a
house-banked table, its spots, settlement lines, wagers, fees, seating, session, stack entries and
its audit events), column by column, with only the columns that place it overridden: the
columns the models gain later are copied as they are, so the builder keeps up with the schema.
Ids are given explicitly (from past the highest in use; the sequences are moved after), so
that each row names its parents by arithmetic, with no join back.

The room: ``tables`` tables in the template's cardroom (copies of the template's table and of
its settings, and a second settings version from mid-year), ``players`` players, one session a
day per table and ``spots`` seatings per session, over ``days`` gaming days ending the day
before the template's. The hands are laid out so that what the timed reports read stays the
same size whatever ``hands`` is (a report's time is then a function of the history's size
alone): the last gaming day has ``rate`` hands at every table, and the template's table (the
measured one) ``rate`` hands every day; the rest of the hands are spread evenly over the other
tables and days. Each hand has ``spots`` spots (seats 1, 2, ...; most raise, some bet a bonus,
a fee per spot where the cardroom has a fee template) and the ten audit events of a real
two-spot hand, on its table's chain, a few seconds apart.

The audit events are shaped like real ones (actions, object types and ids, chains, payloads,
times) but not hashed as the chain is: their hashes are stand-ins, unique, and the log does not
verify. Stack entries are a buy-in and a cash-out per seating; no bank entries, decision costs
or cash log: the timed reports do not read them.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db import connection
from django.db.models import Model

from bench.history_sql import Built, Shape, bulk_load, next_id, rand, reset_sequences

#: Seconds of play in a gaming day, from half an hour after it starts.
PLAY_SECONDS = 64_800
#: Seconds between a hand's audit events.
EVENT_GAP = 5


def build(template_hand: Any, shape: Shape, *, fast: bool = True) -> Built:
    """Generate the history around ``template_hand`` (a settled hand of a house-banked table
    with its audit events); answers where it is. ``fast``: load without triggers and indexes
    (a superuser's connection, outside a transaction); else row by row as the schema checks
    them, inside the caller's transaction (the tests')."""
    from wagers.models import Hand

    shape.check()
    hand = Hand.objects.select_related("table__cardroom", "session").get(pk=template_hand.pk)
    cardroom = hand.table.cardroom
    played = hand.settlements.get(kind="original").gaming_day
    assert played is not None, "the template hand's settlement has no gaming day"
    last_day = played - timedelta(days=1)
    first_day = last_day - timedelta(days=shape.days - 1)
    with connection.cursor() as cursor:
        b = _Builder(cursor, hand, shape, first_day, cardroom)
        with bulk_load(cursor, b.big_tables(), fast=fast):
            b.tables()
            b.settings_versions()
            b.players()
            b.sessions_and_seatings()
            b.hands()
            b.spots()
            b.settlements()
            b.wagers()
            b.fees()
            b.events()
        reset_sequences(cursor, b.big_tables())
        cursor.execute("DROP TABLE hist_hand")
    return Built(b.table_ids, b.player0, first_day, last_day, b.event_count)


__all__ = ["Built", "Shape", "build"]


class _Builder:
    def __init__(self, cursor: Any, hand: Any, shape: Shape, first_day: date, cardroom: Any):
        from audit.models import AuditEvent
        from patrons.models import Person, Player
        from rake.models import FeeEntry
        from tables.models import Seating, StackEntry, Table, TableSession, TableSettings
        from wagers.models import (
            FeeBooking,
            Hand,
            Settlement,
            Spot,
            SpotSettlement,
            WagerSettlement,
        )

        self.c, self.hand, self.s = cursor, hand, shape
        self.models: dict[str, type[Model]] = {
            "table": Table, "settings": TableSettings, "person": Person, "player": Player,
            "session": TableSession, "seating": Seating, "stack": StackEntry, "hand": Hand,
            "spot": Spot, "settlement": Settlement, "line": SpotSettlement,
            "wager": WagerSettlement, "fee": FeeEntry, "booking": FeeBooking, "event": AuditEvent,
        }  # fmt: skip
        self.cardroom = cardroom
        self.day0 = first_day.isoformat()
        self.template_settlement = hand.settlements.get(kind="original")
        self.template_spots = list(hand.spots.order_by("seat"))
        self.template_events = list(
            AuditEvent.objects.filter(chain=f"table:{hand.table_id}")
            .filter(occurred_at__gte=hand.started_at - timedelta(minutes=5))
            .filter(occurred_at__lte=hand.settled_at)
            .exclude(action__in=("rotation.offered", "stack.dp_bank"))
            .order_by("seq")
        )
        assert self.template_events, "the template hand has no audit events"
        self.event_count = 0
        self.fee_template = FeeEntry.objects.order_by("id").first()

    def big_tables(self) -> list[str]:
        return [m._meta.db_table for m in self.models.values()]

    def _next(self, name: str, column: str = "id") -> int:
        return next_id(self.c, self.models[name]._meta.db_table, column)

    def _copy(
        self, name: str, template_pk: int, source: str, overrides: dict[str, str | None]
    ) -> None:
        """Rows of ``source`` (a FROM clause, aliased ``g``), each a copy of the template row
        but for ``overrides`` (SQL expressions over ``g`` and the template ``t``)."""
        model = self.models[name]
        table = model._meta.db_table
        columns = [
            f.column for f in model._meta.concrete_fields if overrides.get(f.column, "") is not None
        ]
        select = [overrides.get(column) or f't."{column}"' for column in columns]
        names = ", ".join(f'"{c}"' for c in columns)
        self.c.execute(
            f'INSERT INTO "{table}" ({names}) SELECT {", ".join(select)} '
            f'FROM "{table}" t CROSS JOIN {source} WHERE t.id = {int(template_pk)}'
        )

    def _day_start(self, day: str | int) -> str:
        """The moment gaming day ``day`` (0-based, SQL) starts, in the cardroom's zone."""
        starts = self.cardroom.gaming_day_starts_at.isoformat()
        zone = self.cardroom.time_zone.replace("'", "")
        return f"((DATE '{self.day0}' + ({day})::int) + TIME '{starts}') AT TIME ZONE '{zone}'"

    def tables(self) -> None:
        """Copies of the template's table up to ``tables`` in the cardroom."""
        table = self.hand.table
        have = list(
            self.cardroom.tables.filter(banking=table.banking)
            .exclude(pk=table.pk)
            .values_list("pk", flat=True)
        )
        more = self.s.tables - self.cardroom.tables.count()
        first = self._next("table")
        self._copy("table", table.pk, f"generate_series(0, {more - 1}) g(i)", {
            "id": f"{first} + g.i", "name": "'History ' || lpad((g.i + 1)::text, 3, '0')",
        })  # fmt: skip
        self.table_ids = [table.pk, *have, *range(first, first + more)]
        self.nt = len(self.table_ids)
        self.ids_sql = "ARRAY[" + ",".join(map(str, self.table_ids)) + "]::bigint[]"

    def _table(self, index: str) -> str:
        return f"({self.ids_sql})[({index}) + 1]"

    def settings_versions(self) -> None:
        """Version 1 of each new table as the template's newest; everywhere, one more version
        from mid-year (the hands after it are played under it)."""
        from tables.selectors import current_settings

        version = current_settings(self.hand.table)
        first = self._next("settings")
        self.v1 = first
        n = len(self.table_ids)
        self._copy("settings", version.pk, f"generate_series(0, {n - 1}) g(i)", {
            "id": f"{first} + g.i", "table_id": self._table("g.i"),
            "version": "CASE WHEN g.i = 0 THEN t.version + 1 ELSE 1 END",
            "created_at": f"{self._day_start(0)} - interval '1 day'",
        })  # fmt: skip
        self.v2 = first + n
        self._copy("settings", version.pk, f"generate_series(0, {n - 1}) g(i)", {
            "id": f"{self.v2} + g.i", "table_id": self._table("g.i"),
            "version": "CASE WHEN g.i = 0 THEN t.version + 2 ELSE 2 END",
            "created_at": self._day_start(self.s.days // 2),
        })  # fmt: skip

    def players(self) -> None:
        template = self.template_spots[0].player
        p = self.s.players
        self.person0 = self._next("person")
        self._copy("person", template.person_id, f"generate_series(0, {p - 1}) g(i)", {
            "id": f"{self.person0} + g.i",
        })  # fmt: skip
        self.player0 = self._next("player")
        self._copy("player", template.pk, f"generate_series(0, {p - 1}) g(i)", {
            "id": f"{self.player0} + g.i", "person_id": f"{self.person0} + g.i",
            "name": "'History Player ' || (g.i + 1)", "name_key": "'history player ' || (g.i + 1)",
        })  # fmt: skip

    def _player(self, table: str, day: str, seat: str) -> str:
        """Seat 1 of the measured table is always the measured player; the others rotate."""
        k = f"((({table}) * {self.s.days} + ({day})) * {self.s.spots} + ({seat}))"
        return (
            f"CASE WHEN ({table}) = 0 AND ({seat}) = 1 THEN {self.player0} "
            f"ELSE {self.player0} + 1 + {k} % {self.s.players - 1} END"
        )

    def _session(self, table: str, day: str) -> str:
        return f"({self.session0} + ({table}) * {self.s.days} + ({day}))"

    def _seating(self, table: str, day: str, seat: str) -> str:
        place = f"(({table}) * {self.s.days} + ({day})) * {self.s.spots}"
        return f"({self.seating0} + {place} + ({seat}) - 1)"

    def sessions_and_seatings(self) -> None:
        s, hand = self.s, self.hand
        grid = (
            f"(SELECT tb, d FROM generate_series(0, {self.nt - 1}) tb "
            f"CROSS JOIN generate_series(0, {s.days - 1}) d) g"
        )
        opened = f"{self._day_start('g.d')}"
        self.session0 = self._next("session")
        self._copy("session", hand.session_id, grid, {
            "id": self._session("g.tb", "g.d"), "table_id": self._table("g.tb"),
            "opened_at": opened, "closed_at": f"{opened} + interval '19 hours'",
            "closed_by_id": "t.opened_by_id", "rack_counted_until": "NULL",
        })  # fmt: skip
        seats = (
            f"(SELECT tb, d, st FROM generate_series(0, {self.nt - 1}) tb "
            f"CROSS JOIN generate_series(0, {s.days - 1}) d "
            f"CROSS JOIN generate_series(1, {s.spots}) st) g"
        )
        seating = self.template_spots[0].seating
        self.seating0 = self._next("seating")
        self._copy("seating", seating.pk, seats, {
            "id": self._seating("g.tb", "g.d", "g.st"), "table_id": self._table("g.tb"),
            "seat": "g.st", "player_id": self._player("g.tb", "g.d", "g.st"),
            "sat_at": opened, "left_at": f"{opened} + interval '19 hours'", "stack": "0",
        })  # fmt: skip
        entry = seating.entries.order_by("id").first()
        if entry is not None:
            for reason, amount, at in (("buy_in", "500", "0"), ("cash_out", "-500", "18")):
                self._copy("stack", entry.pk, seats, {
                    "id": None, "seating_id": self._seating("g.tb", "g.d", "g.st"),
                    "amount": amount, "reason": f"'{reason}'", "tender": "'cash'",
                    "created_at": f"{opened} + interval '{at} hours 30 minutes'",
                    "gaming_day": f"DATE '{self.day0}' + g.d",
                })  # fmt: skip

    def hands(self) -> None:
        """The hands' places (table, day, second of play), numbered in time order."""
        s, nt = self.s, self.nt
        a, b = s.rate * nt, s.rate * (s.days - 1)
        m = s.hands - a - b
        gap = PLAY_SECONDS // s.rate
        self.c.execute(f"""
            DROP TABLE IF EXISTS hist_hand;
            CREATE TEMP TABLE hist_hand AS
            SELECT (row_number() OVER (ORDER BY d, sec, tb) - 1)::bigint AS n, tb, d, sec
            FROM (SELECT
                CASE WHEN i < {a} THEN i % {nt} WHEN i < {a + b} THEN 0
                     ELSE 1 + (i - {a + b}) % {nt - 1} END AS tb,
                CASE WHEN i < {a} THEN {s.days - 1} WHEN i < {a + b} THEN (i - {a}) / {s.rate}
                     ELSE ((i - {a + b}) * {s.days - 1}) / {max(m, 1)} END AS d,
                CASE WHEN i < {a} THEN (i / {nt}) * {gap}
                     WHEN i < {a + b} THEN ((i - {a}) % {s.rate}) * {gap}
                     ELSE ((i - {a + b}) * 7919) % {PLAY_SECONDS} END AS sec
              FROM generate_series(0::bigint, {s.hands - 1}) i) p
        """)  # fmt: skip
        self.c.execute("ALTER TABLE hist_hand ADD PRIMARY KEY (n)")
        self.started = f"({self._day_start('g.d')} + (1800 + g.sec) * interval '1 second')"
        self.hand0 = self._next("hand")
        version = f"CASE WHEN g.d >= {s.days // 2} THEN {self.v2} ELSE {self.v1} END + g.tb"
        self._copy("hand", self.hand.pk, "hist_hand g", {
            "id": f"{self.hand0} + g.n", "table_id": self._table("g.tb"),
            "session_id": self._session("g.tb", "g.d"), "number": f"{1_000_000} + g.n",
            "settings_id": version, "rotation_id": "NULL", "dp_seating_id": "NULL",
            "started_at": self.started, "settled_at": f"{self.started} + interval '50 seconds'",
        })  # fmt: skip

    def _spot_rows(self) -> str:
        return (
            f"(SELECT h.*, st FROM hist_hand h CROSS JOIN generate_series(1, {self.s.spots}) st) g"
        )

    def spots(self) -> None:
        k = f"(g.n * {self.s.spots} + g.st - 1)"
        self.spot0 = self._next("spot")
        raised = next(x for x in self.template_spots if x.decision == "raise")
        ante = f"(10 + 5 * ({rand(k, 1)} % 5))"
        self._copy("spot", raised.pk, self._spot_rows(), {
            "id": f"{self.spot0} + {k}", "hand_id": f"{self.hand0} + g.n", "seat": "g.st",
            "seating_id": self._seating("g.tb", "g.d", "g.st"),
            "player_id": self._player("g.tb", "g.d", "g.st"), "ante": ante,
            "flush_bonus": f"CASE WHEN {rand(k, 3)} % 100 < 40 THEN 5 ELSE 0 END",
            "straight_flush_bonus": f"CASE WHEN {rand(k, 4)} % 100 < 20 THEN 5 ELSE 0 END",
            "decision": f"CASE WHEN {rand(k, 2)} % 100 < 68 THEN 'raise' ELSE 'fold' END",
            "raise_amount": f"CASE WHEN {rand(k, 2)} % 100 < 68 THEN {ante} ELSE 0 END",
        })  # fmt: skip

    def settlements(self) -> None:
        t = self.template_settlement
        self.settlement0 = self._next("settlement")
        self._copy("settlement", t.pk, "hist_hand g", {
            "id": f"{self.settlement0} + g.n", "hand_id": f"{self.hand0} + g.n",
            "created_at": f"{self.started} + interval '50 seconds'",
            "gaming_day": f"DATE '{self.day0}' + g.d::int",
        })  # fmt: skip
        line = self.template_settlement.spots.order_by("id").first()
        k = f"(g.n * {self.s.spots} + g.st - 1)"
        self.line0 = self._next("line")
        fee = "1" if self.fee_template else "0"
        self._copy("line", line.pk, self._spot_rows(), {
            "id": f"{self.line0} + {k}", "settlement_id": f"{self.settlement0} + g.n",
            "spot_id": f"{self.spot0} + {k}", "seat": "g.st",
            "status": f"CASE WHEN {rand(k, 2)} % 100 < 68 THEN 'played' ELSE 'folded' END",
            "dead_reason": "''", "rake": fee, "net": "0", "paid_back": "0",
        })  # fmt: skip

    def wagers(self) -> None:
        """The ante always; the raise of a spot that raised; its bonuses; outcomes seeded."""
        from wagers.models import WagerSettlement

        template = WagerSettlement.objects.order_by("id").first()
        assert template is not None, "no wager settlement to copy"
        k = f"(s.id - {self.spot0})"
        win = f"{rand(k, 5)} % 100"
        played = f"CASE WHEN {win} < 45 THEN 'win' WHEN {win} < 92 THEN 'lose' ELSE 'push' END"
        folded = f"CASE WHEN s.decision = 'fold' THEN 'lose' ELSE {played} END"
        bonus = "CASE WHEN {0} % {1} < {2} THEN 'win' ELSE 'lose' END"
        for wager, stake, when, outcome in (
            ("ante", "s.ante", "TRUE", folded),
            ("raise", "s.raise_amount", "s.raise_amount > 0", played),
            ("flush_bonus", "s.flush_bonus", "s.flush_bonus > 0", bonus.format(rand(k, 6), 100, 7)),
            ("straight_flush_bonus", "s.straight_flush_bonus", "s.straight_flush_bonus > 0",
             bonus.format(rand(k, 7), 1000, 4)),
        ):  # fmt: skip
            pays = "4" if wager.endswith("bonus") else "1"
            source = (
                f"(SELECT s.id - {self.spot0} + {self.line0} AS line, {stake} AS stake, "
                f"{outcome} AS outcome FROM wagers_spot s WHERE s.id >= {self.spot0} AND {when}) g"
            )
            self._copy("wager", template.pk, source, {
                "id": None, "spot_settlement_id": "g.line", "wager": f"'{wager}'",
                "stake": "g.stake", "outcome": "g.outcome",
                "net": f"CASE g.outcome WHEN 'win' THEN g.stake * {pays} "
                "WHEN 'lose' THEN -g.stake ELSE 0 END",
            })  # fmt: skip

    def fees(self) -> None:
        if self.fee_template is None:
            return
        k = f"(g.n * {self.s.spots} + g.st - 1)"
        fee0, booking0 = self._next("fee"), self._next("booking")
        self._copy("fee", self.fee_template.pk, self._spot_rows(), {
            "id": f"{fee0} + {k}", "table_id": self._table("g.tb"),
            "gaming_day": f"DATE '{self.day0}' + g.d::int", "payer": "'spot'", "seat": "g.st",
            "amount": "1", "created_at": f"{self.started} + interval '50 seconds'",
            "shift": f"'{self.template_settlement.shift}'", "adjusts_day": "NULL",
            "adjusts_shift": "''",
        })  # fmt: skip
        from wagers.models import FeeBooking

        template = FeeBooking.objects.order_by("id").first()
        assert template is not None, "a fee entry without its booking"
        self._copy("booking", template.pk, self._spot_rows(), {
            "id": f"{booking0} + {k}", "fee_id": f"{fee0} + {k}",
            "hand_id": f"{self.hand0} + g.n", "settlement_id": f"{self.settlement0} + g.n",
        })  # fmt: skip

    def events(self) -> None:
        """The template hand's events, for each hand, on its table's chain; the seatings they
        name are the hand's seat 1 and 2 (those of the template, in order)."""
        seatings = {str(x.seating_id): i + 1 for i, x in enumerate(self.template_spots)}
        per = len(self.template_events)
        seq0 = self._next("event", "seq")
        for j, event in enumerate(self.template_events):
            seq = f"({seq0} + g.n * {per} + {j})"
            object_id = "t.object_id"
            if event.object_type == "wagers.hand":
                object_id = f"({self.hand0} + g.n)::text"
            elif event.object_type == "tables.seating" and event.object_id in seatings:
                seat = min(seatings[event.object_id], self.s.spots)
                object_id = f"{self._seating('g.tb', 'g.d', str(seat))}::text"
            self._copy("event", event.pk, "hist_hand g", {
                "id": None, "seq": seq, "chain": f"'table:' || {self._table('g.tb')}",
                "chain_seq": f"1000000 + g.n * {per} + {j}",
                "occurred_at": f"{self.started} + interval '{j * EVENT_GAP} seconds'",
                "object_id": object_id,
                "prev_hash": f"md5(({seq} - 1)::text) || md5(({seq} - 1)::text || 'h')",
                "hash": f"md5({seq}::text) || md5({seq}::text || 'h')",
            })  # fmt: skip
        self.event_count = per * self.s.hands
