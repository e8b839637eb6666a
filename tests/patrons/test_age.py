"""The age line: a cardroom's minimum age (21 in California, B&P §19921) refuses a player
under it at registration, at a seat and at every cash buy-in, at a table and at the cage —
neutrally for a dealer or a cashier, with the reason for the floor — and raises an
``under_age`` incident once per player and gaming day. The age is counted on the cardroom's
gaming day; a birthday counts."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.db import IntegrityError, transaction

from audit.models import AuditEvent
from cage import services as cage_services
from cage.services import CountGiven
from core.errors import DomainError, PermissionDenied
from patrons.age import UnderAge, age_on, cardroom_minimum_age_set
from patrons.cash import cage_cash
from patrons.exclusions import Excluded, ExclusionInput, exclusion_add
from patrons.identity import identity_record
from patrons.models import Cardroom, CashTransaction, Incident, Player, PlayerIdentity
from patrons.persons import player_record_new
from tables.models import Seating
from tables.services.seating import player_create, seat_player
from tables.services.stacks import stack_add
from tests.conftest import signed

from .conftest import an_id, local

pytestmark = pytest.mark.django_db

# The clock: 2026-04-02 20:00 in New York, gaming day 2026-04-02 (tests/patrons/conftest.py).
SEVENTEEN = date(2009, 1, 15)
TWENTY_ONE_TODAY = date(2005, 4, 2)
TWENTY_ONE_TOMORROW = date(2005, 4, 3)
NEUTRAL_SEAT = "This player cannot be seated; call a floor supervisor."
NEUTRAL_BUY = "This player cannot buy chips; call a floor supervisor."
NEUTRAL_REGISTER = "This player cannot be registered; call a floor supervisor."


def made_before_the_line(cardroom, by, born=SEVENTEEN, name="Kit Young") -> Player:
    """A player on file from before the age line was checked: the record made directly, the
    identity recorded (which takes any date of birth: it is what the ID says)."""
    player = player_record_new(cardroom=cardroom, name=name)
    identity_record(player=player, identity=an_id("Y1234567", born=born), by=by)
    return player


def under_age_incidents():
    return Incident.objects.filter(kind=Incident.Kind.UNDER_AGE)


def test_it_counts_whole_years_and_a_birthday_counts():
    assert age_on(date(2005, 4, 2), date(2026, 4, 2)) == 21
    assert age_on(date(2005, 4, 3), date(2026, 4, 2)) == 20
    assert age_on(date(2004, 2, 29), date(2025, 2, 28)) == 20  # a leap-day birthday: 1 March
    assert age_on(date(2004, 2, 29), date(2025, 3, 1)) == 21


def test_a_new_cardroom_s_line_is_california_s(cardroom):
    assert cardroom.minimum_age == 21


def test_a_17_year_old_is_refused_registration_neutrally_naming_the_date_of_birth(cardroom, dealer):
    seq = AuditEvent.objects.count()
    with pytest.raises(UnderAge) as refused:
        player_create(
            cardroom=cardroom, name="Kit Young", identity=an_id(born=SEVENTEEN), by=dealer
        )

    error = refused.value
    assert (error.code, error.field, error.message) == (
        "call_floor",
        "date_of_birth",
        NEUTRAL_REGISTER,
    )
    assert not Player.objects.exists() and not PlayerIdentity.objects.exists()
    # What stays is the alert: the incident and the refusal, in the audit log.
    actions = AuditEvent.objects.order_by("seq")[seq:].values_list("action", flat=True)
    assert list(actions) == ["incident.reported", "player.under_age_refused"]
    incident = under_age_incidents().get()
    assert incident.summary.startswith("Kit Young (born 2009-01-15) is under the minimum age of 21")
    assert "17 on gaming day 2026-04-02" in incident.summary and "register" in incident.summary


def test_the_floor_is_told_the_reason(cardroom, supervisor):
    with pytest.raises(UnderAge) as refused:
        player_create(
            cardroom=cardroom, name="Kit Young", identity=an_id(born=SEVENTEEN), by=supervisor
        )
    assert refused.value.code == "under_age"
    assert refused.value.message == (
        "Kit Young (born 2009-01-15) cannot be registered: under the minimum age of 21 "
        "(17 on gaming day 2026-04-02)."
    )


def test_a_player_on_file_from_before_the_line_cannot_sit(cardroom, house_a, dealer, supervisor):
    kit = made_before_the_line(cardroom, supervisor)

    with pytest.raises(UnderAge) as refused:
        seat_player(table=house_a, seat=1, player=kit, buy_in="100", by=dealer)

    assert (refused.value.code, refused.value.field) == ("call_floor", "player")
    assert refused.value.message == NEUTRAL_SEAT
    assert not Seating.objects.exists() and not CashTransaction.objects.exists()
    incident = under_age_incidents().get()
    assert list(incident.players.all()) == [kit] and incident.at_table.table == house_a


def test_nor_buy_chips_for_cash_at_the_table(cardroom, house_a, dealer, supervisor):
    kit = made_before_the_line(cardroom, supervisor)
    seating = Seating.objects.create(table=house_a, seat=1, player=kit, sat_at=local(2026, 4, 2))

    with pytest.raises(UnderAge) as refused:
        stack_add(seating=seating, amount="100", tender="cash", by=dealer)

    assert (refused.value.code, refused.value.message) == ("call_floor", NEUTRAL_BUY)
    seating.refresh_from_db()
    assert seating.stack == 0 and not CashTransaction.objects.exists()
    assert under_age_incidents().get().at_table.table == house_a


@pytest.fixture
def cage(cardroom, cashier, supervisor):
    return cage_services.cage_open(
        cardroom=cardroom,
        count=CountGiven(chips={"25": 40, "100": 20}, cash={"20": 500}),
        signature=signed(cashier),
        witness=signed(supervisor),
        by=cashier,
    )


def test_nor_at_the_cage(cardroom, cage, cashier, supervisor):
    kit = made_before_the_line(cardroom, supervisor)

    with pytest.raises(UnderAge) as refused:
        cage_services.cage_chips_sell(player=kit, chips={"25": 4}, by=cashier)
    with pytest.raises(UnderAge):
        cage_cash(player=kit, direction="in", amount="100", by=cashier)

    assert (refused.value.code, refused.value.message) == ("call_floor", NEUTRAL_BUY)
    assert not CashTransaction.objects.exists()
    incident = under_age_incidents().get()  # one a gaming day is enough
    assert list(incident.players.all()) == [kit] and "buy chips" in incident.summary
    assert AuditEvent.objects.filter(action="player.under_age_refused").count() == 2


def test_chips_redeemed_at_the_cage_are_not_refused(cardroom, cage, cashier, supervisor):
    """The line keeps a player from playing; a player's own chips are cashed."""
    kit = made_before_the_line(cardroom, supervisor)
    cage_services.cage_chips_redeem(player=kit, chips={"25": 4}, by=cashier)
    assert CashTransaction.objects.get().direction == "out"


def test_twenty_one_today_registers_sits_and_buys_in(cardroom, house_a, dealer):
    player = player_create(
        cardroom=cardroom, name="Ada Birthday", identity=an_id(born=TWENTY_ONE_TODAY), by=dealer
    )
    seating = seat_player(table=house_a, seat=1, player=player, buy_in="100", by=dealer)
    stack_add(seating=seating, amount="50", tender="cash", by=dealer)
    seating.refresh_from_db()
    assert seating.stack == 150 and not under_age_incidents().exists()


def test_the_age_is_counted_on_the_gaming_day(cardroom, house_a, dealer, supervisor, clock):
    """At 02:00 on 3 April the gaming day is still 2 April: a player born on 3 April 2005 is
    20 on it, and 21 from 06:00, when 3 April's gaming day starts."""
    ben = made_before_the_line(cardroom, supervisor, born=TWENTY_ONE_TOMORROW, name="Ben Soon")
    clock.set(local(2026, 4, 3, 2, 0))
    with pytest.raises(UnderAge, match="20 on gaming day 2026-04-02"):
        seat_player(table=house_a, seat=1, player=ben, by=supervisor)
    clock.set(local(2026, 4, 3, 6, 0))
    seat_player(table=house_a, seat=1, player=ben, by=dealer)
    assert Seating.objects.get().player == ben


def test_one_incident_per_player_and_gaming_day(cardroom, house_a, dealer, supervisor, clock):
    kit = made_before_the_line(cardroom, supervisor)
    for seat in (1, 2):
        with pytest.raises(UnderAge):
            seat_player(table=house_a, seat=seat, player=kit, by=dealer)
    assert under_age_incidents().count() == 1
    clock.set(local(2026, 4, 3, 7, 0))  # the next gaming day
    with pytest.raises(UnderAge):
        seat_player(table=house_a, seat=1, player=kit, by=dealer)
    assert under_age_incidents().count() == 2
    refused = AuditEvent.objects.filter(action="player.under_age_refused").order_by("seq")
    assert [json.loads(e.payload)["incident_raised"] for e in refused] == [True, False, True]


def test_a_refused_registration_is_one_incident_a_day_for_the_same_person(cardroom, dealer):
    for _ in range(2):
        with pytest.raises(UnderAge):
            player_create(
                cardroom=cardroom, name="Kit Young", identity=an_id(born=SEVENTEEN), by=dealer
            )
    assert under_age_incidents().count() == 1


def test_a_player_with_no_date_of_birth_on_file_sits(cardroom, house_a, dealer):
    """The floor checks age at the door: without a date of birth there is nothing to refuse."""
    player = player_create(cardroom=cardroom, name="No Papers", by=dealer)
    seat_player(table=house_a, seat=1, player=player, buy_in="100", by=dealer)
    assert Seating.objects.get().player == player


def test_an_exclusion_is_answered_before_the_age(cardroom, house_a, dealer, supervisor):
    """A person both excluded and under age meets the exclusion's refusal and alert."""
    kit = made_before_the_line(cardroom, supervisor)
    entry = ExclusionInput(kind="barred", name="", starts_on=date(2026, 1, 1), reason="Fraud.")
    exclusion_add(cardroom=cardroom, entry=entry, player=kit, by=supervisor)
    with pytest.raises(Excluded):
        seat_player(table=house_a, seat=1, player=kit, by=dealer)
    assert not under_age_incidents().exists()


# --- the setting -----------------------------------------------------------------------------


def test_the_floor_sets_the_line_audited_and_it_applies_at_once(
    cardroom, house_a, dealer, supervisor
):
    nineteen = date(2007, 1, 1)
    cardroom = cardroom_minimum_age_set(cardroom=cardroom, minimum_age=18, by=supervisor)

    player = player_create(
        cardroom=cardroom, name="Lee Nineteen", identity=an_id(born=nineteen), by=dealer
    )
    seat_player(table=house_a, seat=1, player=player, by=dealer)
    event = AuditEvent.objects.get(action="cardroom.minimum_age_set")
    payload = json.loads(event.payload)
    assert (payload["minimum_age"], payload["before"]) == (18, 21)
    assert event.actor == supervisor
    assert Cardroom.objects.get(pk=cardroom.pk).minimum_age == 18


def test_an_administrator_sets_it_too(cardroom, administrator):
    cardroom_minimum_age_set(cardroom=cardroom, minimum_age=25, by=administrator)
    assert Cardroom.objects.get(pk=cardroom.pk).minimum_age == 25


@pytest.mark.parametrize("value", [17, 26, 0, -1, True, "21", 21.0, None])
def test_a_line_outside_18_to_25_or_not_a_whole_number_is_refused(
    cardroom, supervisor, refusal, value
):
    with refusal(DomainError, field="minimum_age", says="minimum age"):
        cardroom_minimum_age_set(cardroom=cardroom, minimum_age=value, by=supervisor)


@pytest.mark.parametrize("who", ["dealer", "auditor", "cashier"])
def test_only_the_floor_or_an_administrator_sets_it(cardroom, refusal, request, who):
    with refusal(PermissionDenied, field=None, says="minimum age"):
        cardroom_minimum_age_set(cardroom=cardroom, minimum_age=18, by=request.getfixturevalue(who))


@pytest.mark.parametrize("value", [17, 26])
def test_the_database_holds_the_bounds(cardroom, value):
    with pytest.raises(IntegrityError), transaction.atomic():
        Cardroom.objects.filter(pk=cardroom.pk).update(minimum_age=value)
