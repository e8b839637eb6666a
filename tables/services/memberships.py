"""Who works in which cardroom (``CardroomMembership``): an administrator grants a person a
cardroom and withdraws it, each in the audit log. A person's role is exercised in their
cardrooms only; a new account starts in the cardrooms its maker works in at the time."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core import scoping
from core.errors import Conflict, DomainError
from core.people import person_name
from core.permissions import require_role
from core.roles import ADMINISTRATOR
from patrons.models import Cardroom

from ..models import CardroomMembership
from ..staff_selectors import cardrooms_known, cardrooms_of


def _check(user: User, cardroom: Cardroom, by: User, action: str) -> User:
    require_role(by, ADMINISTRATOR, action=action)
    # An administrator's own cardrooms, whichever one their screens show now.
    if cardroom.pk not in cardrooms_of(by):
        raise DomainError(f"You do not work in {cardroom.name}.", field="cardroom")
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.is_superuser:
        raise DomainError("Only a staff account works in cardrooms.", field="user")
    return user


@transaction.atomic
def membership_grant(*, user: User, cardroom: Cardroom, by: User) -> CardroomMembership:
    """``user`` works in ``cardroom`` from now on, in the role they hold."""
    user = _check(user, cardroom, by, "grant a cardroom")
    if CardroomMembership._base_manager.filter(user=user, cardroom=cardroom).exists():
        raise Conflict(f"{person_name(user)} works in {cardroom.name} already.", field="user")
    membership = CardroomMembership.objects.create(user=user, cardroom=cardroom, granted_by=by)
    audit_record(
        actor=by,
        action=AuditAction.STAFF_CARDROOM_GRANTED,
        target=user,
        payload={"username": user.get_username(), "cardroom": cardroom.pk},
    )
    return membership


@transaction.atomic
def membership_withdraw(*, user: User, cardroom: Cardroom, by: User) -> None:
    """``user`` no longer works in ``cardroom`` (their other cardrooms stay)."""
    user = _check(user, cardroom, by, "withdraw a cardroom")
    if user.pk == by.pk:
        raise DomainError("You cannot withdraw your own cardroom.", field="user")
    deleted, _ = CardroomMembership._base_manager.filter(user=user, cardroom=cardroom).delete()
    if not deleted:
        raise Conflict(f"{person_name(user)} does not work in {cardroom.name}.", field="user")
    audit_record(
        actor=by,
        action=AuditAction.STAFF_CARDROOM_WITHDRAWN,
        target=user,
        payload={"username": user.get_username(), "cardroom": cardroom.pk},
    )


def memberships_for_new_account(account: User, maker: User) -> None:
    """A new account works where its maker works in this request (on the screens, the one
    cardroom chosen; through the API, every cardroom of the maker's)."""
    rooms = cardrooms_of(maker)
    scope = scoping.current()
    if scope is not None:
        rooms = rooms & scope
    CardroomMembership.objects.bulk_create(
        [CardroomMembership(user=account, cardroom_id=room, granted_by=maker) for room in rooms],
        ignore_conflicts=True,
    )


def membership_of_creator(cardroom: Cardroom, by: User) -> None:
    """The administrator who creates a cardroom works in it, from this request on."""
    scoping.include(cardroom.pk)
    CardroomMembership.objects.get_or_create(
        user=by, cardroom=cardroom, defaults={"granted_by": by}
    )
    cardrooms_known(by, cardrooms_of(by) | {cardroom.pk})
