"""An exclusion takes effect at once (wagers.services.holds): an entry recorded or imported, or
an identity recorded, that matches a seated player holds the seat in the same transaction —
no wager from then on (one-spot and batch), the player's wagers of a hand not yet dealt given
back, a hand already dealt finished by the rules, never the designated player again (R16), an
incident for the floor, and the chips off the table only through a floor supervisor. A
dealer is told only to call the floor (``call_floor``); the floor is told the reason."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from core.errors import Conflict
from patrons.exclusion_imports import exclusion_list_import
from patrons.exclusions import ExclusionInput, exclusion_add
from patrons.models import Exclusion, Incident
from tables.models import RotationRecord, Seating
from tables.services.seating import (
    seating_come_back,
    seating_leave,
    seating_sit_out,
    seating_waive_dp,
)
from tables.services.stacks import stack_add, stack_cash_out
from wagers import services
from wagers.models import Hand, Spot

from .support import (
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
    ledger_sum,
    stacks,
    start,
    wager,
)

pytestmark = pytest.mark.django_db

BORN = date(1980, 5, 17)
NEUTRAL = "This player cannot play on; call a floor supervisor."


def bar(seating: Seating, by, **values) -> Exclusion:
    """The floor bars the seated player (the floor's "Bar a player": name and identity on file)."""
    entry = ExclusionInput(
        kind=values.pop("kind", "barred"),
        name="",
        starts_on=values.pop("starts_on", date(2024, 1, 1)),
        reason="Past-posting at the DP table.",
        **values,
    )
    return exclusion_add(
        cardroom=seating.player.cardroom, entry=entry, player=seating.player, by=by
    )


def held(seating: Seating) -> Seating:
    seating.refresh_from_db()
    return seating


@pytest.fixture
def barred_at_house(house_table, house_players, identify, supervisor):
    """Seat 1 of the house table, identified and barred while seated (no hand in progress)."""
    seating = house_players[1]
    identify(seating.player)
    bar(seating, supervisor)
    return held(seating)


def test_a_bar_holds_the_seated_player_at_once_and_raises_an_incident(
    house_table, house_players, identify, supervisor
):
    seating = house_players[2]
    identify(seating.player)
    before = AuditEvent.objects.count()

    entry = bar(seating, supervisor)

    seating = held(seating)
    assert seating.exclusion_hold == entry and seating.held_at is not None
    alert = Incident.objects.get(kind="exclusion_match")
    assert (alert.at_table.table, list(alert.players.all()), alert.exclusion) == (
        house_table,
        [seating.player],
        entry,
    )
    assert "seat 2" in alert.summary and "barred on the cardroom's own list" in alert.summary
    # The seat's events on its table's chain first, the entry's on the cardroom's after.
    actions = list(AuditEvent.objects.order_by("seq")[before:].values_list("action", flat=True))
    assert actions == ["incident.reported", "seat.held", "exclusion.matched", "exclusion.added"]
    # The others at the table are not held.
    assert not Seating.objects.exclude(pk=seating.pk).filter(exclusion_hold__isnull=False)


def test_the_dealer_is_told_to_call_the_floor_and_the_floor_is_told_why(
    barred_at_house, house_table, dealer, supervisor, refusal
):
    hand = start(house_table, dealer)
    with refusal(Conflict, field="seating", says=NEUTRAL) as refused:
        wager(hand, house_table, 1, "10", by=dealer)
    assert refused.value.code == "call_floor" and refused.value.message == NEUTRAL

    with refusal(Conflict, field="seating", says="barred on the cardroom's own list") as told:
        wager(hand, house_table, 1, "10", by=supervisor)
    assert told.value.code == "excluded"
    assert "since 2024-01-01, for life" in told.value.message
    assert told.value.message.startswith(f"{barred_at_house.player} cannot play on")


def test_a_batch_naming_the_held_seat_is_refused_whole_and_the_others_play_without_her(
    barred_at_house, house_table, dealer, refusal
):
    hand = start(house_table, dealer)
    batch = [{"seat": seat, "ante": "10"} for seat in (2, 1, 3)]
    with refusal(Conflict, field="spots[1].seating", says="call a floor supervisor") as refused:
        services.wagers_place_many(hand=hand, wagers=batch, by=dealer)
    assert refused.value.code == "call_floor"

    spots = services.wagers_place_many(hand=hand, wagers=[batch[0], batch[2]], by=dealer)
    assert [spot.seat for spot in spots] == [2, 3]


def test_her_wagers_of_a_hand_not_yet_dealt_go_back_and_the_round_is_dealt_without_her(
    house_table, house_players, identify, dealer, supervisor
):
    seating = house_players[1]
    identify(seating.player)
    hand = start(house_table, dealer)
    for seat in (1, 2):
        wager(hand, house_table, seat, "10", by=dealer, flush_bonus="5")
    assert stacks(house_table)[1] == Decimal("985.00")

    bar(seating, supervisor)

    assert stacks(house_table)[1] == Decimal("1000.00") == ledger_sum(held(seating))
    assert list(Spot.objects.filter(hand=hand).values_list("seat", flat=True)) == [2]
    withdrawn = AuditEvent.objects.get(action="hand.wagers_withdrawn")
    assert '"returned":"15.00"' in withdrawn.payload and '"seat":1' in withdrawn.payload
    assert "went back onto the stack" in Incident.objects.get().summary
    hand = services.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_K94, spot_cards={2: FOUR_HEARTS_AT62}, by=dealer
    )
    services.decisions_record_many(
        hand=hand, decisions=[{"seat": 2, "decision": "raise", "raise_amount": "10"}], by=dealer
    )
    settlement = services.hand_settle(hand=hand, by=dealer)
    assert [line["seat"] for line in settlement.result["spots"]] == [2]


def test_a_hand_already_dealt_finishes_by_the_rules_and_the_next_refuses_her(
    house_table, house_players, identify, dealer, supervisor
):
    seating = house_players[1]
    identify(seating.player)
    hand = start(house_table, dealer)
    for seat in (1, 2):
        wager(hand, house_table, seat, "10", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_K94,
        spot_cards={1: FOUR_CLUBS_KQJ4, 2: THREE_DIAMONDS_Q85},
        by=dealer,
    )

    bar(seating, supervisor)

    assert "already dealt, finishes by the rules" in Incident.objects.get().summary
    services.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="10", by=dealer)
    services.spot_decide(hand=hand, seat=2, decision="fold", by=dealer)
    settled = services.hand_settle(hand=hand, by=dealer).result
    assert {line["seat"]: line["net"] for line in settled["spots"]}[1] == "20.00"  # R9: wins
    assert stacks(house_table)[1] == Decimal("1020.00")

    following = start(house_table, dealer)
    with pytest.raises(Conflict, match="call a floor supervisor"):
        wager(following, house_table, 1, "10", by=dealer)


def test_a_held_designated_player_calls_off_a_hand_not_yet_dealt_and_is_passed_by_next(
    dp_table, dp_players, identify, dealer, supervisor
):
    dp = dp_players[4]
    identify(dp.player)
    hand = start(dp_table, dealer, dp=4, bank="500")
    for seat in (1, 2):
        wager(hand, dp_table, seat, "10", by=dealer)

    bar(dp, supervisor)

    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEAD and not hand.spots.exists()
    assert stacks(dp_table) == {seat: Decimal("1000.00") for seat in (1, 2, 4, 5, 6)}
    assert "was called off" in Incident.objects.get().summary
    events = AuditEvent.objects.filter(object_type="wagers.hand", object_id=str(hand.pk))
    actions = list(events.order_by("seq").values_list("action", flat=True))
    assert actions[-2:] == ["hand.wagers_withdrawn", "hand.cancelled"]

    # R16: offered clockwise from seat 5, the position reaches her last, and passes her by.
    with pytest.raises(Conflict, match=r"seat 4 ineligible \(call a floor supervisor\)"):
        services.hand_start(table=dp_table, by=dealer, refusals=(5, 6, 1, 2))
    offers = RotationRecord.objects.filter(table=dp_table).latest("id").offers
    assert [(o["seat"], o["outcome"]) for o in offers][-1] == (4, "ineligible")
    assert start(dp_table, dealer).dp_seating.seat == 5


def test_a_hand_left_with_no_spot_is_called_off(
    house_table, house_players, identify, dealer, supervisor
):
    seating = house_players[3]
    identify(seating.player)
    hand = start(house_table, dealer)
    wager(hand, house_table, 3, "10", by=dealer)

    bar(seating, supervisor)

    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEAD and stacks(house_table)[3] == Decimal("1000.00")
    start(house_table, dealer)  # the table plays on


@pytest.mark.parametrize(
    "change",
    [
        lambda s, by: stack_cash_out(seating=s, by=by),
        lambda s, by: seating_leave(seating=s, by=by),
        lambda s, by: seating_sit_out(seating=s, by=by),
        lambda s, by: seating_come_back(seating=s, by=by),
        lambda s, by: seating_waive_dp(seating=s, waived=True, by=by),
        lambda s, by: stack_add(seating=s, amount="100", by=by),
    ],
    ids=["cash out", "leave", "sit out", "come back", "waive", "add chips"],
)
def test_a_dealer_changes_nothing_at_a_held_seat(barred_at_house, dealer, refusal, change):
    with refusal(Conflict, field="seating", says=NEUTRAL) as refused:
        change(barred_at_house, dealer)
    assert refused.value.code == "call_floor"


def test_the_chips_leave_through_a_floor_supervisors_cash_out_and_nobody_adds_any(
    barred_at_house, supervisor, refusal
):
    with refusal(Conflict, field="seating", says="cannot buy chips: barred") as refused:
        stack_add(seating=barred_at_house, amount="100", by=supervisor)
    assert refused.value.code == "excluded"

    stack_cash_out(seating=barred_at_house, amount="400", by=supervisor)
    seating_leave(seating=barred_at_house, by=supervisor)

    seating = held(barred_at_house)
    assert seating.left_at is not None and seating.stack == 0
    assert list(seating.entries.values_list("reason", "amount").order_by("id"))[-2:] == [
        ("cash_out", Decimal("-400.00")),
        ("cash_out", Decimal("-600.00")),
    ]


def test_a_state_list_imported_holds_a_seated_player_matched_on_the_id(
    house_table, house_players, identify, dealer, auditor
):
    seating = house_players[2]
    identify(seating.player, number="B7654321")
    listed = (
        "kind,name,id_type,id_number,id_issuer,starts_on,reference\n"
        "self_excluded,Someone Else,driver_licence,B-765-4321,ca,2023-06-01,CA-0002\n"
    )

    (entry,) = exclusion_list_import(text=listed, source_name="ca.csv", by=auditor)

    assert held(seating).exclusion_hold == entry
    assert "self-excluded on the state list CA-0002" in Incident.objects.get().summary
    hand = start(house_table, dealer)
    with pytest.raises(Conflict, match="call a floor supervisor"):
        wager(hand, house_table, 2, "10", by=dealer)


def test_an_identity_recorded_later_holds_a_player_an_entry_names_by_birth(
    house_table, house_players, identify, supervisor
):
    seating = house_players[4]
    entry = ExclusionInput(
        kind="self_restricted",
        name=seating.player.name.upper(),
        starts_on=date(2024, 1, 1),
        ends_on=date(2099, 1, 1),
        date_of_birth=BORN,
        reason="Asked for a break.",
    )
    exclusion_add(cardroom=house_table.cardroom, entry=entry, by=supervisor)
    assert held(seating).exclusion_hold is None  # the name alone does not match

    identify(seating.player, born=BORN)  # the dealer takes the ID at the table

    assert held(seating).exclusion_hold is not None
    assert "identity was recorded by dealer" in Incident.objects.get().summary


def test_an_entry_that_is_not_in_force_today_or_matches_nobody_holds_nobody(
    house_table, house_players, identify, supervisor
):
    identify(house_players[1].player)
    tomorrow = timezone.localdate() + timedelta(days=2)
    bar(house_players[1], supervisor, starts_on=tomorrow)
    entry = ExclusionInput(
        kind="barred",
        name="Nobody Here",
        starts_on=date(2024, 1, 1),
        date_of_birth=BORN,
        reason="Cheating elsewhere.",
    )
    exclusion_add(cardroom=house_table.cardroom, entry=entry, by=supervisor)

    assert not Seating.objects.filter(exclusion_hold__isnull=False).exists()
    assert not Incident.objects.exists()
