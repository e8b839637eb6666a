"""The read-only admin follows the API's rule on hole cards too: a hand in play shows its cards only
to its table's dealer on duty and floor supervisors; administrators look through configuration
only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from core.roles import ADMINISTRATOR, COMPLIANCE_AUDITOR, setup_role_groups
from tests.api.conftest import World

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(supervisor, second_supervisor, dealer, other_dealer, auditor, administrator,
          second_administrator) -> World:  # fmt: skip
    setup_role_groups()  # the admin's view permissions of each role
    for user in (supervisor, auditor, administrator):
        user.is_staff = True
        user.save()
    return World(
        supervisor=supervisor, second_supervisor=second_supervisor, dealer=dealer,
        other_dealer=other_dealer, auditor=auditor, administrator=administrator,
        second_administrator=second_administrator,
    )  # fmt: skip


def _hand_page(client, user: User, hand) -> str:
    client.force_login(User.objects.get(pk=user.pk))  # its role and permissions afresh
    response = client.get(reverse("admin:wagers_hand_change", args=[hand.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _cards(hand) -> list[str]:
    """As stored (sorted), the dealer's and each spot's."""
    return [hand.dealer_cards, *hand.spots.values_list("cards", flat=True)]


def test_compliance_sees_a_live_hand_in_the_admin_without_its_cards(client, world):
    hand = world.hand_dealt

    page = _hand_page(client, world.auditor, hand)

    assert not [cards for cards in _cards(hand) if cards in page]


def test_a_supervisor_sees_them_and_compliance_sees_a_settled_hands(client, world):
    live, settled = world.hand_dealt, world.hand_settled

    assert all(cards in _hand_page(client, world.supervisor, live) for cards in _cards(live))
    assert all(cards in _hand_page(client, world.auditor, settled) for cards in _cards(settled))


def test_a_live_spot_in_the_admin_hides_its_cards_from_compliance(client, world):
    spot = world.hand_dealt.spots.get(seat=1)
    client.force_login(User.objects.get(pk=world.auditor.pk))

    page = client.get(reverse("admin:wagers_spot_change", args=[spot.pk])).content.decode()

    assert spot.cards and spot.cards not in page


def test_administrators_look_through_configuration_not_play_or_stacks(db):
    setup_role_groups()
    administrators = set(
        Group.objects.get(name=ADMINISTRATOR).permissions.values_list("codename", flat=True)
    )
    auditors = set(
        Group.objects.get(name=COMPLIANCE_AUDITOR).permissions.values_list("codename", flat=True)
    )

    assert {"view_cardroom", "view_selfapprovalchange", "view_table"} <= administrators
    assert not {"view_seating", "view_stackentry", "view_hand", "view_auditevent"} & administrators
    assert {"view_seating", "view_hand", "view_auditevent"} <= auditors
