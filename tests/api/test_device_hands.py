"""A hand dealt by the table's shuffler over the API (``POST /api/v1/device/hands/``): its
credential, the deal by seat with the dealer's (or DP's) hand last (R1), a replay, each
refusal by name — kept for the dealer's screen, the hand still waiting for its cards — and the
misdeal (R14) the dealer declares after one."""

from __future__ import annotations

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from audit.models import AuditEvent
from engine.cards import hand_text, parse_hand
from tables.services.devices import device_register, device_revoke, device_token_rotate
from wagers import services as wagers
from wagers.models import Hand, ShufflerReport, Spot
from wagers.shuffler_selectors import active_device, last_shuffler_refusal

from .conftest import DEALER_CARDS, LOSER_CARDS, WINNER_CARDS
from .test_idempotency import on_postgres

pytestmark = pytest.mark.django_db

V = "/api/v1"
URL = f"{V}/device/hands/"
DP_CARDS = DEALER_CARDS.split()
SEAT_CARDS = [WINNER_CARDS.split(), LOSER_CARDS.split()]


def as_stored(cards: str) -> str:
    """A hand as the project writes it (its cards in the engine's order)."""
    return hand_text(parse_hand(cards, field="cards"))


def device_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Device {token}")
    return client


def registered(world, table):
    return device_register(
        table=table, make="Shufflex", model="HF-7", serial=f"SX-{table.pk}", by=world.supervisor
    )


@pytest.fixture
def dp_hand(world) -> Hand:
    """A hand at the DP table waiting for its cards: the two players who are not the DP have
    wagered (one spot each)."""
    table = world.dp_table
    hand = wagers.hand_start(table=table, by=world.dealer)
    for seating in table.seatings.filter(left_at=None).exclude(pk=hand.dp_seating_id):
        wagers.wager_place(hand=hand, seating=seating, ante="10", by=world.dealer)
    hand.refresh_from_db()
    return hand


@pytest.fixture
def shuffler(world, dp_hand):
    """The DP table's shuffler and a client signed with its token."""
    device, token = registered(world, world.dp_table)
    return device, device_client(token)


def counts() -> tuple[int, int, int]:
    return (
        Spot.objects.exclude(cards="").count(),
        AuditEvent.objects.count(),
        ShufflerReport.objects.count(),
    )


def error_of(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["field"]


# --- the credential -------------------------------------------------------------------------


def test_without_a_device_token_the_route_is_refused_401(world, dp_hand):
    answer = APIClient().post(URL, {"sequence": 1, "hands": []}, format="json")

    assert answer.status_code == 401
    assert answer["WWW-Authenticate"] == "Device"


def test_a_persons_token_is_no_credential_on_the_device_route(api, world, dp_hand):
    for person in (world.dealer, world.supervisor):
        answer = api(person).post(URL, {"sequence": 1, "hands": [DP_CARDS]}, format="json")
        assert answer.status_code == 401
    assert dp_hand.spots.exclude(cards="").count() == 0


def test_a_device_token_is_no_credential_anywhere_else(world, shuffler):
    _, client = shuffler

    for path in (f"{V}/hands/", f"{V}/auth/me/", f"{V}/tables/{world['dp_table']}/devices/"):
        assert client.get(path).status_code == 401, path
    assert client.post(f"{V}/hands/{shuffler[0].pk}/deal/", {}).status_code == 401


def test_a_revoked_device_or_a_rotated_token_is_refused_401(world, dp_hand):
    device, old = registered(world, world.dp_table)
    _, new = device_token_rotate(device=device, by=world.supervisor)
    body = {"sequence": 1, "hands": [*SEAT_CARDS, DP_CARDS]}

    assert device_client(old).post(URL, body, format="json").status_code == 401
    device_revoke(device=device, by=world.supervisor)
    assert device_client(new).post(URL, body, format="json").status_code == 401
    assert active_device(world.dp_table) is None
    assert ShufflerReport.objects.count() == 0


def test_another_tables_device_cannot_deal_this_tables_hand(world, dp_hand):
    _, token = registered(world, world.house_table)
    body = {"sequence": 1, "hand": dp_hand.pk, "hands": [*SEAT_CARDS, DP_CARDS]}

    answer = device_client(token).post(URL, body, format="json")

    assert error_of(answer) == (409, "hand")
    assert "is not a hand of House table" in answer.json()["error"]["message"]
    dp_hand.refresh_from_db()
    assert dp_hand.status == "wagering" and dp_hand.spots.exclude(cards="").count() == 0
    assert last_shuffler_refusal(dp_hand) is None  # not shown at a table it is not about


# --- the deal -------------------------------------------------------------------------------


def test_r1_the_hands_go_to_the_live_spots_by_seat_then_the_dp_last(world, dp_hand, shuffler):
    device, client = shuffler
    seats = list(dp_hand.spots.order_by("seat").values_list("seat", flat=True))
    body = {"sequence": 12, "hand": dp_hand.pk, "hands": [*SEAT_CARDS, DP_CARDS]}

    answer = client.post(URL, body, format="json")

    assert answer.status_code == 201, answer.content
    data = answer.json()
    assert (data["sequence"], data["id"], data["status"]) == (12, dp_hand.pk, "dealt")
    dp_hand.refresh_from_db()
    assert (dp_hand.status, dp_hand.card_source) == ("dealt", Hand.CardSource.SHUFFLER)
    assert dp_hand.get_card_source_display() == "Read by the table's shuffler"
    assert dp_hand.dealer_cards == as_stored(DEALER_CARDS)
    by_seat = dict(dp_hand.spots.values_list("seat", "cards"))
    assert by_seat == {seats[0]: as_stored(WINNER_CARDS), seats[1]: as_stored(LOSER_CARDS)}
    assert {s["seat"]: s["cards"] for s in data["spots"]} == by_seat
    event = AuditEvent.objects.filter(action="hand.dealt").get()
    assert event.actor_id == world.dealer.pk  # the dealer on duty: see wagers.services.shuffler
    assert '"source":"shuffler"' in event.payload and '"sequence":12' in event.payload
    assert f'"device":{device.pk}' in event.payload
    assert last_shuffler_refusal(dp_hand) is None


def test_without_a_hand_number_the_tables_hand_waiting_for_cards_is_dealt(world, shuffler):
    _, client = shuffler

    answer = client.post(URL, {"sequence": 1, "hands": [*SEAT_CARDS, DP_CARDS]}, format="json")

    assert answer.status_code == 201, answer.content
    assert Hand.objects.get(pk=answer.json()["id"]).table == world.dp_table


def test_the_same_message_again_answers_the_same_and_books_once(dp_hand, shuffler):
    _, client = shuffler
    body = {"sequence": 7, "hand": dp_hand.pk, "hands": [*SEAT_CARDS, DP_CARDS]}
    first = client.post(URL, body, format="json")
    before = counts()

    again = client.post(URL, body, format="json")

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert counts() == before
    assert AuditEvent.objects.filter(action="hand.dealt").count() == 1


def test_the_same_sequence_with_other_hands_is_refused_and_changes_nothing(dp_hand, shuffler):
    _, client = shuffler
    body = {"sequence": 7, "hand": dp_hand.pk, "hands": [*SEAT_CARDS, DP_CARDS]}
    client.post(URL, body, format="json")
    before = counts()

    other = client.post(URL, {**body, "hands": [DP_CARDS, *SEAT_CARDS]}, format="json")

    assert error_of(other) == (409, "sequence")
    assert counts() == before


# --- the refusals, kept for the dealer's screen ----------------------------------------------


def refused_and_kept(client, hand, body, status, field):
    """The message is refused naming ``field``; the refusal is kept with its reason (the
    hand's last shuffler refusal, offered as a misdeal) and audited; the hand still waits."""
    before = counts()
    answer = client.post(URL, body, format="json")
    assert error_of(answer) == (status, field), answer.content
    hand.refresh_from_db()
    assert hand.status == "wagering" and hand.card_source == ""
    assert counts()[0] == before[0]  # no spot has cards
    report = last_shuffler_refusal(hand)
    assert report is not None
    assert (report.field, report.sequence, report.outcome) == (field, body["sequence"], "refused")
    assert report.reason == answer.json()["error"]["message"] and len(report.reason) > 15
    assert AuditEvent.objects.filter(action="device.report_refused").count() == 1
    return answer


def test_a_hand_not_waiting_for_cards_is_refused_409_hand(world, shuffler):
    device, client = shuffler
    open_hand = wagers.hand_start(table=world.house_table, by=world.dealer)  # no wagers yet
    _, house_token = registered(world, world.house_table)
    house = device_client(house_token)
    body = {"sequence": 1, "hands": [DP_CARDS]}

    answer = house.post(URL, body, format="json")

    assert error_of(answer) == (409, "hand")
    assert last_shuffler_refusal(open_hand).field == "hand"
    assert "no hand waiting" not in answer.json()["error"]["message"]  # it names the hand


def test_no_hand_at_the_table_is_refused_409_hand(world):
    _, token = registered(world, world.house_table)

    answer = device_client(token).post(URL, {"sequence": 1, "hands": [DP_CARDS]}, format="json")

    assert error_of(answer) == (409, "hand")
    assert "no hand waiting for cards" in answer.json()["error"]["message"]
    assert ShufflerReport.objects.get().hand is None


def test_a_dealt_hand_is_refused_409_hand(dp_hand, shuffler):
    _, client = shuffler
    body = {"sequence": 1, "hand": dp_hand.pk, "hands": [*SEAT_CARDS, DP_CARDS]}
    client.post(URL, body, format="json")

    answer = client.post(URL, {**body, "sequence": 2}, format="json")

    assert error_of(answer) == (409, "hand")
    assert "dealt" in answer.json()["error"]["message"]


def test_r1_the_wrong_number_of_hands_is_refused_400_hands(dp_hand, shuffler):
    _, client = shuffler
    body = {"sequence": 3, "hand": dp_hand.pk, "hands": [SEAT_CARDS[0], DP_CARDS]}

    answer = refused_and_kept(client, dp_hand, body, 400, "hands")

    assert "3 hands, not 2" in answer.json()["error"]["message"]


def test_r1_a_card_given_twice_is_refused_naming_the_hand_that_repeats_it(dp_hand, shuffler):
    _, client = shuffler
    repeats = [*DP_CARDS[:6], SEAT_CARDS[0][0]]  # the first spot's Ah again
    body = {"sequence": 4, "hand": dp_hand.pk, "hands": [*SEAT_CARDS, repeats]}

    answer = refused_and_kept(client, dp_hand, body, 400, "hands.2")

    assert "Ah" in answer.json()["error"]["message"]


def test_r1_a_hand_of_eight_cards_is_refused_400_naming_it(dp_hand, shuffler):
    _, client = shuffler
    eight = [*SEAT_CARDS[1], "2d"]
    body = {"sequence": 5, "hand": dp_hand.pk, "hands": [SEAT_CARDS[0], eight, DP_CARDS]}

    refused_and_kept(client, dp_hand, body, 400, "hands.1")


def test_a_refusal_sent_again_is_answered_the_same_and_kept_once(dp_hand, shuffler):
    _, client = shuffler
    body = {"sequence": 6, "hand": dp_hand.pk, "hands": [DP_CARDS]}
    first = client.post(URL, body, format="json")
    before = counts()

    again = client.post(URL, body, format="json")

    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert counts() == before


def test_a_message_after_a_refusal_deals_and_the_refusal_is_no_longer_offered(dp_hand, shuffler):
    _, client = shuffler
    client.post(URL, {"sequence": 1, "hand": dp_hand.pk, "hands": [DP_CARDS]}, format="json")
    assert last_shuffler_refusal(dp_hand) is not None

    body = {"sequence": 2, "hand": dp_hand.pk, "hands": [*SEAT_CARDS, DP_CARDS]}
    assert client.post(URL, body, format="json").status_code == 201

    assert last_shuffler_refusal(dp_hand) is None


def test_r14_after_a_refusal_the_dealer_declares_a_misdeal_and_the_hand_is_dead(
    api, world, dp_hand, shuffler
):
    _, client = shuffler
    body = {"sequence": 9, "hand": dp_hand.pk, "hands": [*SEAT_CARDS, DP_CARDS[:6]]}
    refused_and_kept(client, dp_hand, body, 400, "hands.2")

    answer = api(world.dealer).post(
        f"{V}/hands/{dp_hand.pk}/misdeal/", {"reason": "shuffler_fault"}, format="json"
    )

    assert answer.status_code == 200, answer.content
    dp_hand.refresh_from_db()
    assert (dp_hand.status, dp_hand.misdeal) == ("dead", "shuffler_fault")
    late = client.post(
        URL, {**body, "sequence": 10, "hands": [*SEAT_CARDS, DP_CARDS]}, format="json"
    )
    assert error_of(late) == (409, "hand")


# --- the same message twice at once (PostgreSQL: SQLite serialises whole transactions) -------


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_of_the_same_message_sent_twice_at_once_exactly_one_deals(world, dp_hand):
    _, token = registered(world, world.dp_table)
    body = {"sequence": 1, "hand": dp_hand.pk, "hands": [*SEAT_CARDS, DP_CARDS]}
    barrier = threading.Barrier(2)
    answers: list = [None, None]

    def send(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            answers[index] = device_client(token).post(URL, body, format="json")
        except BaseException as error:  # noqa: BLE001 - reported below
            answers[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(a.status_code for a in answers) == [200, 201], answers
    assert answers[0].json() == answers[1].json()
    assert ShufflerReport.objects.count() == 1
    assert AuditEvent.objects.filter(action="hand.dealt").count() == 1
