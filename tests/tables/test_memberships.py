"""Who works in which cardroom: an administrator grants and withdraws a cardroom, each in
the audit log; a new cardroom's creator works in it; a new account works where its maker
works in the request that made it; refusals name the field and change nothing."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from core import scoping
from core.errors import Conflict, DomainError, PermissionDenied
from core.roles import ADMINISTRATOR, DEALER
from tables import staff
from tables.models import CardroomMembership
from tables.services.cardrooms import cardroom_create
from tables.services.memberships import membership_grant, membership_withdraw
from tables.staff_selectors import cardrooms_of
from tests.conftest import a_person

pytestmark = [pytest.mark.django_db, pytest.mark.own_cardrooms]


@pytest.fixture
def two_rooms(administrator):
    return (
        cardroom_create(name="Harbour", by=administrator),
        cardroom_create(name="Riverside", by=administrator),
    )


def _rooms(user) -> set[int]:
    return set(CardroomMembership.objects.filter(user=user).values_list("cardroom_id", flat=True))


def test_the_creator_of_a_cardroom_works_in_it(administrator, two_rooms):
    assert _rooms(administrator) == {room.pk for room in two_rooms}


def test_an_administrator_grants_and_withdraws_a_cardroom_in_the_audit_log(
    administrator, auditor, two_rooms
):
    harbour, riverside = two_rooms
    membership_grant(user=auditor, cardroom=harbour, by=administrator)
    membership_grant(user=auditor, cardroom=riverside, by=administrator)
    assert _rooms(auditor) == {harbour.pk, riverside.pk}
    membership_withdraw(user=auditor, cardroom=harbour, by=administrator)
    assert _rooms(auditor) == {riverside.pk}
    actions = list(
        AuditEvent.objects.filter(object_id=str(auditor.pk), action__startswith="staff.cardroom")
        .order_by("seq")
        .values_list("action", flat=True)
    )
    assert actions == ["staff.cardroom_granted"] * 2 + ["staff.cardroom_withdrawn"]


def test_refusals_name_the_field_and_change_nothing(administrator, supervisor, auditor, two_rooms):
    harbour, riverside = two_rooms
    membership_grant(user=auditor, cardroom=harbour, by=administrator)
    with pytest.raises(Conflict) as twice:
        membership_grant(user=auditor, cardroom=harbour, by=administrator)
    assert twice.value.field == "user"
    with pytest.raises(Conflict) as not_there:
        membership_withdraw(user=auditor, cardroom=riverside, by=administrator)
    assert not_there.value.field == "user"
    with pytest.raises(PermissionDenied):
        membership_grant(user=auditor, cardroom=riverside, by=supervisor)
    with pytest.raises(DomainError) as own:
        membership_withdraw(user=administrator, cardroom=harbour, by=administrator)
    assert own.value.field == "user"
    other_admin = a_person("admin_river", ADMINISTRATOR, "Ria", "Vale")
    CardroomMembership.objects.create(user=other_admin, cardroom=riverside)
    with pytest.raises(DomainError) as elsewhere:
        membership_grant(user=auditor, cardroom=harbour, by=other_admin)
    assert elsewhere.value.field == "cardroom"
    assert _rooms(auditor) == {harbour.pk}
    assert _rooms(administrator) == {harbour.pk, riverside.pk}


def test_a_new_account_works_where_its_maker_works_in_that_request(
    administrator, supervisor, two_rooms
):
    harbour, riverside = two_rooms
    for room in two_rooms:
        membership_grant(user=supervisor, cardroom=room, by=administrator)
    with scoping.scoped_to({riverside.pk}):  # the supervisor's screens show Riverside
        link = staff.staff_create(
            username="newdealer", first_name="Nia", last_name="Wells", role=DEALER, by=supervisor
        )
    assert _rooms(link.user) == {riverside.pk}
    assert cardrooms_of(link.user) == frozenset({riverside.pk})
