"""A database of the last released schema, with rows in it, migrates to today's and keeps
every row and every link (SQLite and PostgreSQL, as the tables' owner, as a deployment
migrates). An empty database migrating all the way is every run's own: the test database is
made by ``migrate``."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.runtime_role import as_owner, grant_again

#: Each app's last migration in the released schema.
RELEASED = [
    ("audit", "0023_checkpoint_alarms_and_refusal_tally"),
    ("patrons", "0002_exclusion_list_import"),
    ("tables", "0013_cardroom_largest_cage_amount"),
    ("rake", "0004_throughput_indexes"),
    ("wagers", "0004_throughput_indexes"),
    ("cage", "0002_admin_labels"),
    ("compliance", "0005_verification_of_the_state"),
]


def _migrate(targets: list[tuple[str, str]]):
    """Migrate to ``targets``; the runtime role granted again on the tables made, as
    ``manage.py migrate`` does (a new table that is not append-only needs its UPDATE)."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    grant_again()
    return executor.loader.project_state(targets).apps


def _leaves() -> list[tuple[str, str]]:
    graph = MigrationExecutor(connection).loader.graph
    return [node for node in graph.leaf_nodes() if node[0] in dict(RELEASED)]


def _released_rows(old) -> dict[str, int]:
    """Rows of the released schema, written through its own (historical) models."""
    now = timezone.now()
    user = old.get_model("auth", "User").objects.create(username="released")
    cardroom = old.get_model("tables", "Cardroom").objects.create(
        name="Released", largest_cage_amount=Decimal("5000.00")
    )
    table = old.get_model("tables", "Table").objects.create(
        cardroom=cardroom, name="T1", seat_count=7, banking="house"
    )
    player = old.get_model("tables", "Player").objects.create(cardroom=cardroom, name="Ann")
    seating = old.get_model("tables", "Seating").objects.create(
        table=table, seat=1, player=player, sat_at=now, stack=Decimal("100.00")
    )
    entry = old.get_model("tables", "StackEntry").objects.create(
        seating=seating, amount=Decimal("100.00"), reason="buy_in", tender="cash", created_at=now
    )
    cash = old.get_model("patrons", "CashTransaction").objects.create(
        cardroom=cardroom,
        player=player,
        direction="in",
        amount=Decimal("100.00"),
        place="table",
        table=table,
        stack_entry=entry,
        gaming_day=date(2026, 12, 1),
        day_total=Decimal("100.00"),
        recorded_by=user,
        created_at=now,
    )
    slip = old.get_model("cage", "SerialCounter").objects.create(
        cardroom=cardroom, kind="fill", last=1
    )
    settlement = _settled_hand(old, table, user, now)
    incident = old.get_model("patrons", "Incident").objects.create(
        cardroom=cardroom,
        kind="dispute",
        occurred_at=now,
        table=table,
        hand=settlement.hand,
        summary="A dispute",
        reported_by=user,
        created_at=now,
    )
    incident.players.add(player)
    bare = old.get_model("patrons", "Incident").objects.create(
        cardroom=cardroom,
        kind="other",
        occurred_at=now,
        summary="Nowhere in particular",
        reported_by=user,
        created_at=now,
    )
    fee = old.get_model("rake", "FeeEntry").objects.create(
        table=table,
        gaming_day=date(2026, 12, 1),
        hand=settlement.hand,
        settlement=settlement,
        rake_mode="all_players",
        payer="spot",
        seat=1,
        amount=Decimal("1.00"),
        created_at=now,
    )
    bank = old.get_model("tables", "HouseBankEntry").objects.create(
        table=table,
        amount=Decimal("-9.00"),
        reason="settlement",
        settlement=settlement,
        gaming_day=date(2026, 12, 1),
        shift="day",
        created_at=now,
    )
    permission = old.get_model("auth", "Permission").objects.get(
        content_type__app_label="tables", codename="view_cardroom"
    )
    return {
        "permission": permission.pk,
        "cardroom": cardroom.pk,
        "table": table.pk,
        "player": player.pk,
        "seating": seating.pk,
        "entry": entry.pk,
        "cash": cash.pk,
        "incident": incident.pk,
        "bare": bare.pk,
        "counter": slip.pk,
        "hand": settlement.hand_id,
        "settlement": settlement.pk,
        "fee": fee.pk,
        "bank": bank.pk,
    }


def _settled_hand(old, table, user, now):
    session = old.get_model("tables", "TableSession").objects.create(
        table=table, dealer=user, opened_by=user, opened_at=now
    )
    money = dict.fromkeys(
        ("ante_min", "ante_max", "bonus_min", "bonus_max", "chip_unit", "rake_amount"),
        Decimal("1.00"),
    )
    settings = old.get_model("tables", "TableSettings").objects.create(
        table=table,
        version=1,
        bonus_mode="paytable",
        flush_paytable={"4": 1},
        straight_flush_paytable={"3": 8},
        rake_mode="all_players",
        dp_min_bank=Decimal("100.00"),
        dp_max_consecutive=2,
        draw_suit_order="cdhs",
        dp_rotation_window=60,
        **money,
    )
    hand = old.get_model("wagers", "Hand").objects.create(
        table=table,
        session=session,
        number=1,
        settings=settings,
        status="settled",
        started_by=user,
        started_at=now,
    )
    return old.get_model("wagers", "Settlement").objects.create(
        hand=hand,
        entry=1,
        kind="original",
        round={},
        result={},
        house_rake=Decimal("1.00"),
        dealer_net=Decimal("9.00"),
        created_by=user,
        created_at=now,
    )


@pytest.mark.django_db(transaction=True)
def test_a_released_database_keeps_every_row_and_link():
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    from cage.models import SerialCounter
    from patrons.models import Cardroom, CashTransaction, Incident, Player
    from rake.models import FeeEntry
    from tables.models import HouseBankEntry, IncidentTable, Seating, StackEntry, Table
    from wagers.models import BankBooking, IncidentHand

    # The new migrations unapply (down to the released schema) and apply again, and the models
    # need no migration beyond them: one trip down and up serves both (each costs a migrate).
    with as_owner():
        rows = _released_rows(_migrate(RELEASED))
        _migrate(_leaves())
        call_command("makemigrations", "--check", "--dry-run", verbosity=0)

    cardroom = Cardroom.objects.get(pk=rows["cardroom"])
    assert (cardroom.name, cardroom.largest_cage_amount) == ("Released", Decimal("5000.00"))
    assert Table.objects.get(pk=rows["table"]).cardroom == cardroom
    player = Player.objects.get(pk=rows["player"])
    assert player.cardroom == cardroom and player.name == "Ann"
    assert Seating.objects.get(pk=rows["seating"]).player == player
    assert StackEntry.objects.get(pk=rows["entry"]).seating_id == rows["seating"]
    cash = CashTransaction.objects.get(pk=rows["cash"])
    assert (cash.cardroom, cash.player) == (cardroom, player)
    # Its table and stack entry: linked from tables now.
    assert (cash.at_table.table_id, cash.at_table.stack_entry_id) == (rows["table"], rows["entry"])
    assert StackEntry.objects.get(pk=rows["entry"]).cash == cash.at_table
    incident = Incident.objects.get(pk=rows["incident"])
    assert incident.cardroom == cardroom
    assert list(incident.players.all()) == [player]
    # Its table and hand: linked from tables and wagers now; an incident without is linked to
    # neither.
    assert (incident.at_table.table_id, incident.at_hand.hand_id) == (rows["table"], rows["hand"])
    assert IncidentTable.objects.filter(table_id=rows["table"]).get().incident == incident
    assert IncidentHand.objects.get().incident == incident
    bare = Incident.objects.get(pk=rows["bare"])
    assert not IncidentTable.objects.filter(incident=bare).exists()
    assert not IncidentHand.objects.filter(incident=bare).exists()
    assert SerialCounter.objects.get(pk=rows["counter"]).cardroom == cardroom
    # The fee and the rack's entry keep their rows; wagers links them to what booked them.
    booking = FeeEntry.objects.get(pk=rows["fee"]).booking
    assert (booking.hand_id, booking.settlement_id) == (rows["hand"], rows["settlement"])
    bank = HouseBankEntry.objects.get(pk=rows["bank"])
    assert (bank.amount, bank.booking.settlement_id) == (Decimal("-9.00"), rows["settlement"])
    assert [b.pk for b in BankBooking.objects.all()] == [bank.booking.pk]
    # The permission role groups hold follows the model (its content type moved with it).
    permission = Permission.objects.get(pk=rows["permission"])
    assert permission.content_type.model_class() is Cardroom
    assert not ContentType.objects.filter(app_label="tables", model="cardroom").exists()
