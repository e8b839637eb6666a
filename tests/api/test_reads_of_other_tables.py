"""Who reads what of a table: the hole cards of a hand not yet settled only
for its table's dealer on duty and floor supervisors; a table's stacks and rotation only for
its staff, floor supervisors and compliance. The authorization matrix has the statuses; these
tests look at what the answers hold."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from cardroom.screens.templatetags.cardroom import card

pytestmark = pytest.mark.django_db

V = "/api/v1"
SEES_LIVE_CARDS = ("dealer", "supervisor")
#: Those who read hands but not a live hand's cards (administrators read no hand at all).
DOES_NOT = ("other_dealer", "auditor")


def _cards(body: dict) -> list:
    return [body["dealer_cards"], *(spot["cards"] for spot in body["spots"])]


@pytest.mark.parametrize("actor", SEES_LIVE_CARDS)
def test_hole_cards_of_a_hand_being_played_are_shown_to_its_table_staff(api, world, actor):
    body = api(getattr(world, actor)).get(f"{V}/hands/{world['hand_dealt']}/").json()

    assert body["status"] == "dealt"
    assert all(cards for cards in _cards(body))


@pytest.mark.parametrize("actor", DOES_NOT)
def test_hole_cards_of_a_hand_being_played_are_hidden_from_everyone_else(api, world, actor):
    body = api(getattr(world, actor)).get(f"{V}/hands/{world['hand_dealt']}/").json()

    assert body["status"] == "dealt"
    assert _cards(body) == [None, None, None]
    assert [spot["ante"] for spot in body["spots"]] == ["10.00", "10.00"]  # the rest is there


@pytest.mark.parametrize("actor", DOES_NOT)
def test_the_hand_list_hides_live_cards_but_shows_settled_ones(api, world, actor):
    dealt, settled = world.hand_dealt, world.hand_settled

    hands = api(getattr(world, actor)).get(f"{V}/hands/").json()["results"]

    by_id = {hand["id"]: hand for hand in hands}
    assert by_id[dealt.pk]["dealer_cards"] is None
    assert by_id[settled.pk]["dealer_cards"] == settled.dealer_cards


def test_once_settled_the_cards_are_everyones_who_reads_hands(api, world):
    body = api(world.auditor).get(f"{V}/hands/{world['hand_settled']}/").json()

    assert all(_cards(body))


@pytest.mark.parametrize(("actor", "sees"), [
    ("dealer", True), ("supervisor", True), ("auditor", True),
    ("other_dealer", False), ("administrator", False),
])  # fmt: skip
def test_a_tables_detail_shows_its_stacks_only_to_its_staff_supervisors_and_compliance(
    api, world, actor, sees
):
    body = api(getattr(world, actor)).get(f"{V}/tables/{world['dp_table']}/").json()

    assert body["name"] == "DP table"
    if sees:
        assert [s["stack"] for s in body["seatings"]] == ["1000.00"] * 3
    else:
        assert body["seatings"] is None


def test_a_refused_read_of_another_tables_stacks_is_in_the_audit_log(api, world):
    seating = world.seating
    before = AuditEvent.objects.filter(action="permission.refused").count()

    response = api(world.other_dealer).get(f"{V}/seatings/{seating.pk}/stack/")

    assert response.status_code == 403
    assert "stacks" in response.json()["error"]["message"]
    assert AuditEvent.objects.filter(action="permission.refused").count() == before + 1


def test_a_dealer_not_on_duty_cannot_open_another_tables_play_screen(client, world):
    table = world.hand_dealt.table

    client.force_login(world.other_dealer)
    refused = client.get(reverse("dealer-table", args=[table.pk]))
    stepped = client.post(reverse("dealer-step", args=[table.pk, "settle"]))

    assert refused.status_code == stepped.status_code == 403
    # The hand as written and the screen's first card with its suit symbol: a lone "Ks" could
    # be part of the page's random CSRF token.
    cards = world.hand_dealt.dealer_cards
    for response in (refused, stepped):
        page = response.content.decode()
        assert cards not in page and card(cards.split()[0]) not in page


def test_the_dealer_on_duty_sees_the_play_screen_with_the_cards(client, world):
    hand = world.hand_dealt

    client.force_login(world.dealer)
    page = client.get(reverse("dealer-table", args=[hand.table.pk])).content.decode()

    assert "Ks" in page or "K♠" in page


def _dealt_payload(client, hand) -> str:
    events = client.get(f"{V}/audit/events/", {"action": "hand.dealt"}).json()["results"]
    (event,) = [e for e in events if e["object_id"] == str(hand.pk)]
    return event["payload"]


def test_the_audit_log_hides_the_cards_of_a_hand_in_play_from_compliance(api, world):
    hand = world.hand_dealt

    payload = _dealt_payload(api(world.auditor), hand)

    assert hand.dealer_cards.split()[0] not in payload
    assert "hidden until the hand is settled" in payload


def test_the_audit_log_shows_a_hand_in_play_to_supervisors_and_a_settled_hand_to_compliance(
    api, world
):
    live, settled = world.hand_dealt, world.hand_settled

    assert live.dealer_cards in _dealt_payload(api(world.supervisor), live)
    assert settled.dealer_cards in _dealt_payload(api(world.auditor), settled)


def test_the_audit_log_screen_hides_them_too(client, world):
    hand = world.hand_dealt
    client.force_login(world.auditor)

    page = client.get(reverse("compliance-audit"), {"action": "hand.dealt"}).content.decode()

    assert "hidden until the hand is settled" in page
    assert hand.dealer_cards not in page


@pytest.mark.parametrize("path", ["hands/", "hands/{hand_settled}/", "players/"])
def test_an_administrator_reads_no_hand_and_no_player(api, world, path):
    response = api(world.administrator).get(f"{V}/{path.format_map(world)}")

    assert response.status_code == 403


@pytest.mark.parametrize("path", ["tables/{house_table}/inventory/", "slips/{slip}/"])
def test_another_tables_dealer_reads_none_of_its_cage_records(api, world, path):
    url = f"{V}/{path.format_map(world)}"

    assert api(world.other_dealer).get(url).status_code == 403
    assert api(world.dealer).get(url).status_code == 200  # on duty there
