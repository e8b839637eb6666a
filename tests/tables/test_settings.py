"""Tables and their settings: created valid (R5, R12), versioned, never edited (R17). Every
refusal names its field, says why, and writes nothing (``refusal``, tests/conftest.py)."""

from decimal import Decimal

import pytest
from django.db import DatabaseError, connection, transaction

from core.errors import Conflict, DomainError, PermissionDenied
from tables import selectors
from tables.models import TableSettings
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create

from .support import audit_actions

pytestmark = pytest.mark.django_db


def test_a_designated_player_table_starts_at_version_1_with_the_default_settings(dp_table):
    settings = selectors.current_settings(dp_table)
    assert settings.version == 1
    assert (settings.ante_min, settings.ante_max) == (Decimal("5.00"), Decimal("100.00"))
    assert (settings.bonus_min, settings.bonus_max) == (Decimal("1.00"), Decimal("25.00"))
    assert settings.chip_unit == Decimal("1.00")
    assert settings.bonus_mode == "versus_dp"
    assert (settings.rake_mode, settings.rake_amount) == ("all_players", Decimal("1.00"))
    assert settings.flush_paytable == {"4": 2, "5": 10, "6": 50, "7": 200}
    assert settings.straight_flush_paytable == {"3": 8, "4": 60, "5": 100, "6": 500, "7": 1000}
    assert settings.max_aggregate_payout == Decimal("20000.00")
    assert settings.dp_max_consecutive == 2
    assert settings.draw_suit_order == "cdhs"
    assert settings.dp_rotation_window == 40


def test_r12_a_house_banked_table_starts_with_paytable_bonuses_and_no_fee(house_table):
    settings = selectors.current_settings(house_table)
    assert settings.bonus_mode == "paytable"
    assert (settings.rake_mode, settings.rake_amount) == ("none", Decimal("0.00"))


def test_a_table_is_created_with_the_settings_given(make_table):
    table = make_table(
        "High limit",
        seat_count=5,
        settings={
            "ante_min": "25",
            "ante_max": "100.00",
            "chip_unit": "5",
            "bonus_min": "5",
            "rake_amount": "5",
        },
    )
    settings = selectors.current_settings(table)
    assert table.seat_count == 5
    assert (settings.ante_min, settings.chip_unit, settings.rake_amount) == (
        Decimal("25.00"),
        Decimal("5.00"),
        Decimal("5.00"),
    )


def test_creating_a_table_is_audited_with_its_first_settings(dp_table):
    assert audit_actions()[-1] == "table.created"


@pytest.mark.parametrize(
    ("settings", "field", "says"),
    [
        ({"ante_min": "2.99"}, "ante_min", "The posted ante limit $2.99 is outside"),
        ({"ante_min": "2"}, "ante_min", "The posted ante limit $2.00 is outside"),
        ({"ante_max": "100.01"}, "ante_max", "The posted ante limit $100.01 is outside"),
        ({"ante_max": "150"}, "ante_max", "The posted ante limit $150.00 is outside"),
        ({"ante_min": "50", "ante_max": "25"}, "ante_max", "$25.00 is below the minimum $50.00"),
        ({"bonus_min": "0.50"}, "bonus_min", "The posted bonus limit $0.50 is outside"),
        ({"bonus_max": "26"}, "bonus_max", "The posted bonus limit $26.00 is outside"),
        ({"bonus_min": "10", "bonus_max": "5"}, "bonus_max", "$5.00 is below the minimum $10"),
    ],
)
def test_r5_posted_limits_outside_the_regulatory_bounds_are_refused_naming_the_field(
    make_table, refusal, settings, field, says
):
    with refusal(DomainError, field=field, says=says) as refused:
        make_table("Bad limits", settings=settings)
    assert "R5" in refused.value.message


def test_r5_the_regulatory_bounds_themselves_are_allowed(make_table):
    table = make_table(
        "Edges", settings={"ante_min": "3", "ante_max": "100", "bonus_min": "1", "bonus_max": "25"}
    )
    assert selectors.current_settings(table).ante_min == Decimal("3.00")


# A table played with $5 chips, every other amount valid.
FIVES = {"chip_unit": "5", "ante_min": "5", "bonus_min": "5", "bonus_max": "25", "rake_amount": "5"}


@pytest.mark.parametrize(
    ("settings", "field", "says"),
    [
        ({**FIVES, "ante_min": "7"}, "ante_min", "$7.00 is not a whole multiple of the $5.00"),
        ({**FIVES, "ante_max": "98"}, "ante_max", "$98.00 is not a whole multiple of the $5.00"),
        ({**FIVES, "bonus_min": "3"}, "bonus_min", "$3.00 is not a whole multiple of the $5.00"),
        ({**FIVES, "bonus_max": "24"}, "bonus_max", "$24.00 is not a whole multiple of the $5"),
        ({**FIVES, "rake_amount": "2"}, "rake_amount", "fee $2.00 is not a whole multiple"),
        ({"dp_min_bank": "10.50"}, "dp_min_bank", "minimum bank must be a whole multiple"),
    ],
)
def test_r5_amounts_not_a_whole_number_of_chips_are_refused_naming_the_field(
    make_table, refusal, settings, field, says
):
    with refusal(DomainError, field=field, says=says) as refused:
        make_table("Odd chips", settings=settings)
    assert "(R5)" in refused.value.message


@pytest.mark.parametrize(
    "settings",
    [
        {"rake_mode": "all_players", "rake_amount": "1"},
        {"rake_mode": "players_not_dp", "rake_amount": "1"},
        {"rake_mode": "dp_only", "rake_amount": "2"},
    ],
)
def test_r12_a_house_banked_table_with_a_fee_is_refused(make_table, refusal, settings):
    no_fee = "A house-banked table takes no collection fee"
    with refusal(DomainError, field="rake_mode", says=no_fee) as refused:
        make_table("House with rake", banking="house", settings=settings)
    assert "R12" in refused.value.message


@pytest.mark.parametrize(
    ("settings", "field", "says"),
    [
        ({"rake_percent": "5"}, "rake_percent", "'rake_percent' is not a table setting"),
        ({"rake_amount": "5%"}, "rake_amount", "'5%' is not an amount"),
        ({"rake_amount": 0.5}, "rake_amount", "the number 0.5 (a JSON float) is not accepted"),
        ({"rake_mode": "percentage"}, "rake_mode", "'percentage' is not one of"),
        ({"colour": "green"}, "colour", "'colour' is not a table setting"),
    ],
)
def test_r12_a_fee_that_is_not_a_fixed_amount_or_an_unknown_setting_is_refused_naming_it(
    make_table, refusal, settings, field, says
):
    with refusal(DomainError, field=field, says=says):
        make_table("Bad fee", settings=settings)


PAYTABLE_ODDS = "Paytable odds are a whole number N, read as N to 1 (R10)"
SUIT_ORDER = "The draw's suit order lists c, d, h and s once each, lowest first (R16)"


@pytest.mark.parametrize(
    ("settings", "field", "says"),
    [
        ({"flush_paytable": {"9": 5}}, "flush_paytable", "A paytable line is for a flush size"),
        ({"flush_paytable": {"4": 0}}, "flush_paytable", PAYTABLE_ODDS),
        ({"flush_paytable": {"4": 2.5}}, "flush_paytable", "odds 2.5 must be a whole number"),
        (
            {"straight_flush_paytable": {"2": 5}},
            "straight_flush_paytable",
            "A paytable line is for a run length",
        ),
        ({"straight_flush_paytable": {}}, "straight_flush_paytable", "A paytable maps a size"),
        ({"max_aggregate_payout": "0"}, "max_aggregate_payout", "more than $0.00, or null"),
        ({"bonus_mode": "sometimes"}, "bonus_mode", "'sometimes' is not one of"),
        ({"draw_suit_order": "cdhx"}, "draw_suit_order", SUIT_ORDER),
        ({"draw_suit_order": "cdh"}, "draw_suit_order", SUIT_ORDER),
        ({"dp_max_consecutive": 0}, "dp_max_consecutive", "a whole number from 1 to 100"),
        ({"dp_rotation_window": "40"}, "dp_rotation_window", "a whole number from 1 to 1440"),
    ],
)
def test_game_settings_the_rules_do_not_allow_are_refused_naming_the_field(
    make_table, refusal, settings, field, says
):
    with refusal(DomainError, field=field, says=says):
        make_table("Bad settings", settings=settings)


def test_no_table_is_left_behind_by_a_refused_creation(make_table, cardroom, refusal):
    with refusal(DomainError, field="ante_min", says="The posted ante limit $1.00 is outside"):
        make_table("Refused", settings={"ante_min": "1"})
    assert not cardroom.tables.filter(name="Refused").exists()


@pytest.mark.parametrize(
    ("seat_count", "says"),
    [
        (0, "A table has 1 to 7 seats (R1)"),
        (8, "A table has 1 to 7 seats (R1)"),
        (True, "The number of seats is a whole number"),
        ("7", "The number of seats is a whole number"),
    ],
)
def test_r1_a_table_has_one_to_seven_seats(make_table, refusal, seat_count, says):
    with refusal(DomainError, field="seat_count", says=says):
        make_table("Odd seats", seat_count=seat_count)


def test_banking_is_designated_player_or_house(make_table, refusal):
    with refusal(DomainError, field="banking", says="Banking is 'designated_player' or 'house'"):
        make_table("Odd banking", banking="player")


def test_two_tables_of_a_cardroom_cannot_share_a_name(make_table, refusal):
    make_table("Table 1")
    with refusal(Conflict, field="name", says="has a table named 'Table 1' already"):
        make_table("Table 1")


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_r17_only_a_floor_supervisor_creates_a_table(request, cardroom, refusal, persona):
    someone = request.getfixturevalue(persona)
    with refusal(PermissionDenied, field=None, says="Only a floor supervisor may create a table"):
        table_create(cardroom=cardroom, name="Not mine", banking="designated_player", by=someone)


@pytest.mark.parametrize("persona", ["supervisor", "dealer", "auditor"])
def test_only_an_administrator_creates_a_cardroom(request, persona, refusal):
    only = "Only an administrator may create a cardroom"
    with refusal(PermissionDenied, field=None, says=only):
        cardroom_create(name="Elsewhere", by=request.getfixturevalue(persona))


def test_a_cardroom_needs_a_real_time_zone(administrator, refusal):
    with refusal(DomainError, field="time_zone", says="'Mars/Olympus' is not a time zone name"):
        cardroom_create(name="Elsewhere", time_zone="Mars/Olympus", by=administrator)


# --- versions are immutable ------------------------------------------------------------------


def test_r17_an_approved_change_makes_a_new_version_and_leaves_the_old_one_unchanged(
    dp_table, approve
):
    first = selectors.current_settings(dp_table)
    before = {f.attname: getattr(first, f.attname) for f in TableSettings._meta.concrete_fields}
    approve(dp_table, ante_min="10")
    approve(dp_table, rake_amount="2")
    versions = list(TableSettings.objects.filter(table=dp_table).order_by("version"))
    assert [v.version for v in versions] == [1, 2, 3]
    assert [(v.ante_min, v.rake_amount) for v in versions] == [
        (Decimal("5.00"), Decimal("1.00")),
        (Decimal("10.00"), Decimal("1.00")),
        (Decimal("10.00"), Decimal("2.00")),
    ]
    first.refresh_from_db()
    assert {f.attname: getattr(first, f.attname) for f in TableSettings._meta.concrete_fields} == (
        before
    )


def _refused_by_the_database(sql: str, params: list) -> None:
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_the_database_refuses_to_update_a_settings_version(dp_table):
    first = selectors.current_settings(dp_table)
    _refused_by_the_database(
        "UPDATE tables_tablesettings SET ante_min = %s WHERE id = %s", ["50.00", first.pk]
    )
    first.refresh_from_db()
    assert first.ante_min == Decimal("5.00")


def test_the_database_refuses_to_delete_a_settings_version(dp_table):
    first = selectors.current_settings(dp_table)
    _refused_by_the_database("DELETE FROM tables_tablesettings WHERE id = %s", [first.pk])
    assert TableSettings.objects.filter(pk=first.pk).exists()


def test_saving_an_edited_settings_version_through_the_orm_is_refused_too(dp_table):
    first = selectors.current_settings(dp_table)
    first.ante_min = Decimal("50.00")
    with pytest.raises(DatabaseError), transaction.atomic():
        first.save()
    assert selectors.current_settings(dp_table).ante_min == Decimal("5.00")
