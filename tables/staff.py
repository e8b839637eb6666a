"""Staff accounts, managed by a floor supervisor (issue 15): create an account for a dealer,
a member of the count team or another floor supervisor, give it one role, deactivate it.
Never an administrator (kept apart from the supervisors whose changes it governs). Each
write is audited in its own transaction; a deactivation ends the account's sessions and
device tokens (``cardroom.api.signals`` sees the save and revokes them)."""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from cardroom.kernel.errors import Conflict, DomainError
from cardroom.kernel.permissions import require_supervisor
from cardroom.kernel.roles import COUNT_TEAM, DEALER, FLOOR_SUPERVISOR, ROLES, role_of

#: The roles a floor supervisor gives (an administrator is made by an administrator).
STAFF_ROLES = (DEALER, COUNT_TEAM, FLOOR_SUPERVISOR)


def _check_role(role: str) -> None:
    if role not in STAFF_ROLES:
        allowed = ", ".join(r.lower() for r in STAFF_ROLES)
        raise DomainError(f"A floor supervisor gives one of these roles: {allowed}.", field="role")


@transaction.atomic
def staff_create(
    *,
    username: str,
    first_name: str,
    last_name: str,
    role: str,
    password: str,
    by: User,
) -> User:
    """A new staff account in one role, with a first password the person changes later."""
    require_supervisor(by, action="create staff accounts")
    _check_role(role)
    username = username.strip()
    if not username:
        raise DomainError("Give the account a username.", field="username")
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(f"The username {username!r} is taken.", field="username")
    user = User(username=username, first_name=first_name.strip(), last_name=last_name.strip())
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise DomainError(" ".join(error.messages), field="password") from None
    user.set_password(password)
    user.save()
    user.groups.set([Group.objects.get_or_create(name=role)[0]])
    audit_record(
        actor=by,
        action=AuditAction.STAFF_CREATED,
        target=user,
        payload={"username": username, "name": user.get_full_name(), "role": role},
    )
    return user


def _staff_member(user: User, by: User) -> User:
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.pk == by.pk:
        raise DomainError("You cannot change your own account here.", field="user")
    if user.is_superuser or role_of(user) not in (*STAFF_ROLES, None):
        raise DomainError("Only a staff account is managed here.", field="user")
    return user


@transaction.atomic
def staff_role_set(*, user: User, role: str, by: User) -> User:
    """The account's one role, in place of any it held."""
    require_supervisor(by, action="assign staff roles")
    _check_role(role)
    user = _staff_member(user, by)
    before = role_of(user)
    if before == role:
        raise DomainError(f"{user.get_username()} is a {role.lower()} already.", field="role")
    kept = user.groups.exclude(name__in=ROLES)
    user.groups.set([*kept, Group.objects.get_or_create(name=role)[0]])
    audit_record(
        actor=by,
        action=AuditAction.STAFF_ROLE_SET,
        target=user,
        payload={"username": user.get_username(), "role": role, "was": before},
    )
    return user


@transaction.atomic
def staff_deactivate(*, user: User, reason: str, by: User) -> User:
    """The account can no longer log in; its sessions and device tokens end now."""
    require_supervisor(by, action="deactivate staff accounts")
    if not reason.strip():
        raise DomainError("Say why the account is deactivated.", field="reason")
    user = _staff_member(user, by)
    if not user.is_active:
        raise Conflict(f"{user.get_username()} is deactivated already.", field="user")
    user.is_active = False
    user.save(update_fields=["is_active"])  # the save revokes tokens and sessions
    audit_record(
        actor=by,
        action=AuditAction.STAFF_DEACTIVATED,
        target=user,
        payload={"username": user.get_username(), "reason": reason.strip()},
    )
    return user
