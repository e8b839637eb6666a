"""Exclusions for their whole term: a state list's entry is ended by nobody at the cardroom
(it ends at its term, or by the state's removal imported with its reference); a house bar
ends only by two floor supervisors; nobody ends what they recorded that same day; a second
entry of the same kind for the same person is refused; chips redeemed at the cage are
screened like a buy-in; a name-only registration of an excluded person raises an alert."""

from __future__ import annotations

from datetime import date

import pytest

from core.errors import Conflict, DomainError, PermissionDenied
from core.roles import FLOOR_SUPERVISOR
from patrons.cash import cage_cash
from patrons.exclusion_ends import exclusion_end
from patrons.exclusion_imports import exclusion_list_import, state_list_apply
from patrons.exclusion_terms import term_end
from patrons.exclusions import Excluded, ExclusionInput, exclusion_add
from patrons.identity import identity_record
from patrons.incidents import incident_outcome_record
from patrons.models import CashTransaction, Exclusion, Incident, IncidentEntry
from tables.services.exclusion_ends import exclusion_end_decide, exclusion_end_propose
from tables.services.seating import player_create
from tests.conftest import signed

from .conftest import an_id

pytestmark = pytest.mark.django_db
BORN = date(1980, 5, 17)
STATE_LIST = (
    "kind,name,date_of_birth,starts_on,term,reference\n"
    "self_excluded,Robin Vale,1980-05-17,2026-01-10,one_year,CA-SE-1\n"
    "self_excluded,Sam Hale,1970-01-02,2025-06-01,five_years,CA-SE-2\n"
    "self_excluded,Lee Long,1960-03-03,2020-01-01,lifetime,CA-SE-3\n"
)


@pytest.fixture
def second_supervisor(make_user):
    return make_user("supervisor2", role=FLOOR_SUPERVISOR, first_name="Kai", last_name="Ng")


def entry(**kwargs) -> ExclusionInput:
    values = {
        "kind": "barred",
        "name": "Robin Vale",
        "starts_on": date(2026, 1, 1),
        "reason": "Cheating",
        "date_of_birth": BORN,
    } | kwargs
    return ExclusionInput(**values)


@pytest.mark.parametrize(
    ("starts_on", "years", "ends_on"),
    [
        (date(2026, 1, 10), 1, date(2027, 1, 9)),
        (date(2025, 6, 1), 5, date(2030, 5, 31)),
        (date(2024, 2, 29), 1, date(2025, 2, 28)),
    ],
)
def test_a_term_ends_the_day_before_its_anniversary(starts_on, years, ends_on):
    assert term_end(starts_on, years) == ends_on


def test_a_state_list_records_each_term_and_computes_its_end(cardroom, auditor):
    rows = {row.reference: row for row in exclusion_list_import(
        text=STATE_LIST, source_name="ca.csv", by=auditor
    )}  # fmt: skip
    assert (rows["CA-SE-1"].term, rows["CA-SE-1"].ends_on) == ("one_year", date(2027, 1, 9))
    assert (rows["CA-SE-2"].term, rows["CA-SE-2"].ends_on) == ("five_years", date(2030, 5, 31))
    assert (rows["CA-SE-3"].term, rows["CA-SE-3"].ends_on) == ("lifetime", None)


def test_a_state_self_exclusion_cannot_be_ended_at_the_cardroom(
    cardroom, auditor, supervisor, dealer
):
    exclusion_list_import(text=STATE_LIST, source_name="ca.csv", by=auditor)
    listed = Exclusion.objects.get(reference="CA-SE-1")
    for person in (supervisor, auditor):
        with pytest.raises(Conflict) as refused:
            exclusion_end(exclusion=listed, ends_on=date(2026, 4, 2), reason="Asked", by=person)
        assert refused.value.field == "exclusion"
        assert "nobody at the cardroom can end it" in refused.value.message
    listed.refresh_from_db()
    assert listed.ends_on == date(2027, 1, 9) and listed.ended_by is None
    with pytest.raises(Excluded):
        player_create(cardroom=cardroom, name="Robin Vale", identity=an_id(), by=dealer)


def test_a_lifetime_ends_only_by_the_states_removal_imported(cardroom, auditor, dealer):
    exclusion_list_import(text=STATE_LIST, source_name="ca.csv", by=auditor)
    removal = (
        "action,reference,removal_reference,removed_on,kind,name,starts_on\n"
        "remove,CA-SE-3,CA-REM-77,2026-04-01,,,\n"
    )
    made, removed = state_list_apply(text=removal, source_name="ca-removals.csv", by=auditor)
    assert made == [] and [row.reference for row in removed] == ["CA-SE-3"]
    row = Exclusion.objects.get(reference="CA-SE-3")
    assert (row.ends_on, row.end_reference) == (date(2026, 3, 31), "CA-REM-77")
    born = date(1960, 3, 3)
    player = player_create(
        cardroom=cardroom, name="Lee Long", identity=an_id("L555", born), by=dealer
    )
    assert player.pk
    # The same file again removes nothing more; a removal of an entry not on file is refused.
    assert state_list_apply(text=removal, source_name="again.csv", by=auditor)[1] == []
    unknown = removal.replace("CA-SE-3", "CA-SE-9")
    with pytest.raises(DomainError) as refused:
        state_list_apply(text=unknown, source_name="bad.csv", by=auditor)
    assert refused.value.field == "file" and "CA-SE-9" in refused.value.message


def test_a_house_bar_is_not_ended_by_one_person(cardroom, supervisor, auditor):
    bar = exclusion_add(cardroom=cardroom, entry=entry(), by=supervisor)
    with pytest.raises(Conflict) as refused:
        exclusion_end(exclusion=bar, ends_on=date(2026, 4, 2), reason="Lifted", by=auditor)
    assert refused.value.field == "exclusion" and "two-person change" in refused.value.message


def test_a_house_bar_ends_by_two_floor_supervisors(cardroom, supervisor, second_supervisor, dealer):
    bar = exclusion_add(cardroom=cardroom, entry=entry(), by=supervisor)
    change = exclusion_end_propose(
        exclusion=bar, ends_on=date(2026, 4, 1), reason="Lifted on appeal", by=second_supervisor
    )
    with pytest.raises(PermissionDenied):  # the proposer does not approve their own
        exclusion_end_decide(
            change=change, approve=True, signature=signed(second_supervisor), by=second_supervisor
        )
    with pytest.raises(Conflict) as refused:  # nor the one who recorded it, that same day
        exclusion_end_decide(
            change=change, approve=True, signature=signed(supervisor), by=supervisor
        )
    assert refused.value.field == "exclusion"


def test_a_house_bar_end_approved_the_next_day_ends_it(
    cardroom, clock, supervisor, second_supervisor, make_user, dealer
):
    third = make_user("supervisor3", role=FLOOR_SUPERVISOR)
    bar = exclusion_add(cardroom=cardroom, entry=entry(), by=supervisor)
    change = exclusion_end_propose(
        exclusion=bar, ends_on=date(2026, 4, 2), reason="Lifted on appeal", by=second_supervisor
    )
    decision = exclusion_end_decide(change=change, approve=True, signature=signed(third), by=third)
    assert decision.approved
    bar.refresh_from_db()
    assert (bar.ends_on, bar.ended_by, bar.end_reason) == (
        date(2026, 4, 2),
        third,
        "Lifted on appeal",
    )
    assert bar.end_reference == f"two-person change #{change.pk}"
    clock.advance(days=1)
    player_create(cardroom=cardroom, name="Robin Vale", identity=an_id(born=BORN), by=dealer)


def test_nothing_recorded_is_ended_the_same_day_by_its_recorder(cardroom, clock, supervisor):
    restriction = exclusion_add(
        cardroom=cardroom,
        entry=entry(kind="self_restricted", ends_on=date(2026, 12, 31)),
        by=supervisor,
    )
    with pytest.raises(Conflict) as refused:
        exclusion_end(exclusion=restriction, ends_on=date(2026, 4, 2), reason="Ok", by=supervisor)
    assert refused.value.field == "exclusion"
    clock.advance(days=1)
    ended = exclusion_end(
        exclusion=restriction, ends_on=date(2026, 4, 3), reason="Asked", by=supervisor
    )
    assert ended.ends_on == date(2026, 4, 3)


@pytest.mark.parametrize(
    "second",
    [
        {"name": "ROBIN  vale"},  # same name and date of birth
        {"name": "R. Vale", "date_of_birth": None, "id_type": "driver_licence",
         "id_number": "D1234567", "id_issuer": "CA"},  # same ID
    ],
)  # fmt: skip
def test_a_duplicate_bar_is_refused_naming_the_first(cardroom, supervisor, second):
    ids = {"id_type": "driver_licence", "id_number": "D1234567", "id_issuer": "CA"}
    first = exclusion_add(cardroom=cardroom, entry=entry(**ids), by=supervisor)
    with pytest.raises(Conflict) as refused:
        exclusion_add(cardroom=cardroom, entry=entry(**second), by=supervisor)
    assert refused.value.field == "name" and f"exclusion #{first.pk}" in refused.value.message
    assert Exclusion.objects.count() == 1
    # Another kind for the same person is not a duplicate.
    exclusion_add(cardroom=cardroom, entry=entry(kind="self_excluded", **ids), by=supervisor)


def test_chips_redeemed_at_the_cage_are_refused_for_an_excluded_player(
    cardroom, supervisor, dealer, cashier
):
    player = player_create(cardroom=cardroom, name="Robin Vale", by=dealer)
    identity_record(player=player, identity=an_id(born=BORN), by=dealer)
    exclusion_add(cardroom=cardroom, entry=entry(name="", reason="Cheating"), player=player,
                  by=supervisor)  # fmt: skip
    with pytest.raises(Excluded) as refused:
        cage_cash(player=player, direction="out", amount="500.00", by=cashier)
    assert refused.value.code == "call_floor"
    assert refused.value.message == (
        "This player's chips cannot be redeemed here; call a floor supervisor."
    )
    assert not CashTransaction.objects.filter(player=player).exists()
    [incident] = Incident.objects.filter(kind="exclusion_match", players=player)
    assert "redeem chips" in incident.summary
    outcome = incident_outcome_record(
        incident=incident, outcome="chips_held", text="Chips held, player escorted out",
        by=supervisor,
    )  # fmt: skip
    assert outcome.kind == IncidentEntry.Kind.OUTCOME and outcome.outcome == "chips_held"
    with pytest.raises(DomainError) as bad:
        incident_outcome_record(incident=incident, outcome="vanished", text="x", by=supervisor)
    assert bad.value.field == "outcome"


def test_a_name_only_registration_of_an_excluded_person_raises_an_alert(
    cardroom, supervisor, dealer
):
    bar = exclusion_add(cardroom=cardroom, entry=entry(), by=supervisor)
    player = player_create(cardroom=cardroom, name="robin vale", by=dealer)
    assert player.pk  # not refused: a name alone identifies nobody
    [alert] = Incident.objects.filter(kind="exclusion_match", players=player)
    assert alert.exclusion == bar and "Not refused" in alert.summary
    other = player_create(cardroom=cardroom, name="Someone Else", by=dealer)
    assert not Incident.objects.filter(players=other).exists()
