"""Exclusion lists: a match on the ID (keyed hash) or on name and date of birth refuses the
registration, the seat or the buy-in with a neutral message, and raises an alert (an
incident) for the floor and compliance; terms not in force do not match."""

from __future__ import annotations

import hashlib
from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from audit.models import AuditEvent
from core.errors import Conflict, DomainError
from patrons.exclusion_imports import exclusion_list_import
from patrons.exclusions import Excluded, ExclusionInput, exclusion_add
from patrons.identity import identity_record
from patrons.models import Exclusion, Incident, Player, PlayerIdentity
from tables.models import Seating
from tables.services.seating import player_create, seat_player
from tables.services.stacks import stack_add

from .conftest import an_id

pytestmark = pytest.mark.django_db
BORN = date(1980, 5, 17)


def bar(cardroom, by, **kwargs) -> Exclusion:
    values = {
        "kind": "barred",
        "name": "Robin Vale",
        "starts_on": date(2026, 1, 1),
        "reason": "Cheating at House A, 2025-12-31.",
        "date_of_birth": BORN,
    } | kwargs
    return exclusion_add(cardroom=cardroom, entry=ExclusionInput(**values), by=by)


def test_a_match_on_the_id_refuses_registration_neutrally_and_raises_an_alert(
    cardroom, dealer, supervisor
):
    bar(
        cardroom,
        supervisor,
        name="Someone Else",
        date_of_birth=None,
        id_type="driver_licence",
        id_number="d123-4567",
        id_issuer="ca",
    )
    seq = AuditEvent.objects.count()
    with pytest.raises(Excluded) as refused:
        player_create(cardroom=cardroom, name="R. Vale", identity=an_id("D1234567"), by=dealer)
    # Nothing of the registration stays; the alert and its two audit events do.
    assert not Player.objects.exists() and not PlayerIdentity.objects.exists()
    assert list(AuditEvent.objects.order_by("seq")[seq:].values_list("action", flat=True)) == [
        "incident.reported",
        "exclusion.matched",
    ]
    assert refused.value.message == "This player cannot be registered; call a floor supervisor."
    assert refused.value.field == "player"
    assert "barred" not in refused.value.message.lower()
    alert = Incident.objects.get()
    assert alert.kind == "exclusion_match" and alert.exclusion.name == "Someone Else"
    assert "R. Vale" in alert.summary and "refused" in alert.summary


def test_a_match_on_name_and_date_of_birth_refuses_the_seat(cardroom, house_a, dealer, supervisor):
    player = player_create(cardroom=cardroom, name="robin  VALE", by=dealer)
    identity_record(player=player, identity=an_id("X9999999"), by=supervisor)
    bar(cardroom, supervisor, name="Robin Vale")
    with pytest.raises(Excluded, match="cannot be seated; call a floor supervisor"):
        seat_player(table=house_a, seat=1, player=player, by=dealer)
    assert not Seating.objects.exists()
    alert = Incident.objects.get()
    assert (alert.at_table.table, list(alert.players.all())) == (house_a, [player])


def test_a_bar_after_the_player_sat_down_holds_the_seat_and_refuses_the_next_buy_in(
    cardroom, house_a, dealer, supervisor
):
    player = player_create(cardroom=cardroom, name="Robin Vale", identity=an_id(), by=dealer)
    seating = seat_player(table=house_a, seat=1, player=player, buy_in="100", by=dealer)
    exclusion_add(
        cardroom=cardroom,
        entry=ExclusionInput(
            kind="self_excluded",
            name="",
            starts_on=date(2026, 4, 2),
            reason="Asked to be excluded for a year.",
        ),
        player=player,
        by=supervisor,
    )
    # The bar holds her seat at once (wagers.services.holds): the dealer is told to call the
    # floor, and the one alert is the hold's.
    with pytest.raises(Conflict, match="cannot play on; call a floor supervisor") as refused:
        stack_add(seating=seating, amount="100", by=dealer)
    assert refused.value.code == "call_floor"
    seating.refresh_from_db()
    assert seating.stack == 100 and seating.exclusion_hold is not None
    assert AuditEvent.objects.filter(action="exclusion.matched").count() == 1


@pytest.mark.parametrize(
    ("starts_on", "ends_on", "matches"),
    [
        (date(2025, 1, 1), date(2026, 4, 1), False),  # ended yesterday
        (date(2025, 1, 1), date(2026, 4, 2), True),  # ends today
        (date(2026, 4, 3), None, False),  # starts tomorrow
        (date(2020, 1, 1), None, True),  # lifetime
    ],
)
def test_only_terms_in_force_today_match(cardroom, dealer, supervisor, starts_on, ends_on, matches):
    bar(cardroom, supervisor, starts_on=starts_on, ends_on=ends_on)
    try:
        player_create(cardroom=cardroom, name="Robin Vale", identity=an_id(born=BORN), by=dealer)
        refused = False
    except Excluded:
        refused = True
    assert refused is matches
    assert Player.objects.exists() is not matches


def test_a_name_alone_does_not_match(cardroom, dealer, supervisor):
    bar(cardroom, supervisor)
    player_create(cardroom=cardroom, name="Robin Vale", by=dealer)
    player_create(
        cardroom=cardroom, name="Robin Vale", identity=an_id(born=date(1990, 1, 1)), by=dealer
    )
    assert Player.objects.count() == 2


def test_id_numbers_are_encrypted_at_rest_and_hashed_with_a_key(cardroom, dealer):
    player = player_create(
        cardroom=cardroom, name="Robin Vale", identity=an_id("D1234567"), by=dealer
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT id_number, id_hash FROM patrons_playeridentity")
        stored, hashed = cursor.fetchone()
    assert "1234567" not in stored and stored.startswith("gAAAA")  # a Fernet token
    assert hashed != hashlib.sha256(b"D1234567").hexdigest()
    assert PlayerIdentity.objects.get(player=player).id_number == "D1234567"


STATE_LIST = """kind,name,date_of_birth,id_type,id_number,id_issuer,starts_on,ends_on,reference
self_excluded,Pat Doe,1975-02-03,,,,2026-01-01,,CA-0001
barred,Lee Roe,,driver_licence,B7654321,CA,2025-06-01,2027-06-01,CA-0002
"""


def test_a_state_list_is_imported_from_csv_once(cardroom, dealer, auditor):
    made = exclusion_list_import(text=STATE_LIST, source_name="ca.csv", by=auditor)
    assert [(row.name, row.source, row.cardroom) for row in made] == [
        ("Pat Doe", "state_list", None),
        ("Lee Roe", "state_list", None),
    ]
    assert exclusion_list_import(text=STATE_LIST, source_name="ca.csv", by=auditor) == []
    with pytest.raises(Excluded):
        player_create(cardroom=cardroom, name="Anyone", identity=an_id("B-765-4321"), by=dealer)


def test_a_bad_line_refuses_the_whole_list(auditor, refusal):
    bad = STATE_LIST + "barred,Kim Poe,1970-13-01,,,,2026-01-01,,CA-0003\n"
    with refusal(DomainError, field="file", says="Line 4, date_of_birth"):
        exclusion_list_import(text=bad, source_name="ca.csv", by=auditor)


def test_a_new_lookup_key_needs_rehash_ids_and_then_the_id_matches_again(
    cardroom, house_a, dealer, supervisor, settings
):
    """The ID lookup key is its own (production requires ID_LOOKUP_KEY): after it changes,
    ``manage.py rehash_ids`` recomputes the stored hashes and an exclusion matches on the ID
    again; rotating the encryption keys does not touch the hashes."""
    settings.ID_LOOKUP_KEY = "the first lookup key"
    bar(
        cardroom,
        supervisor,
        name="Someone Else",
        date_of_birth=None,
        id_type="driver_licence",
        id_number="D1234567",
        id_issuer="CA",
    )
    player_create(cardroom=cardroom, name="Pat Known", identity=an_id("P9999999"), by=dealer)
    settings.ID_LOOKUP_KEY = "the second lookup key"
    stale = player_create(cardroom=cardroom, name="R. Vale", identity=an_id("D1234567"), by=dealer)
    assert stale.pk  # the old hash no longer matches: registered although barred

    out = StringIO()
    call_command("rehash_ids", stdout=out)

    assert out.getvalue().strip() == "Re-keyed 1 identities and 1 exclusion entries."
    with pytest.raises(Excluded):
        player_create(
            cardroom=cardroom, name="R. Vale again", identity=an_id("D1234567"), by=dealer
        )
    with pytest.raises(Excluded):
        seat_player(table=house_a, seat=1, player=stale, buy_in="100", by=dealer)
