"""Staff accounts (design.md 7, Roles): who makes them, who gives them roles, how their person
sets them up.

- An administrator makes an account in any role, or gives any role, alone.
- A floor supervisor makes dealer accounts alone. An account in a role that approves or signs
  (``SIGNING_ROLES``) is proposed by a floor supervisor — a floor supervisor, count team or
  cashier account — and made when a second person approves (``tables.two_person``): another
  floor supervisor or an administrator, independent of the proposer (the maker's line).
- Whoever makes an account never knows its working password: it is made with none, and its
  person sets one through a one-time link valid for a day (``PASSWORD_RESET_TIMEOUT``); until
  then it can neither sign in, approve nor sign. ``StaffLineage`` keeps its makers.

Each write is audited in its own transaction; a deactivation ends the account's sessions and
device tokens (``cardroom.api.signals`` sees the save and revokes them).
"""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core import scoping
from core.errors import Conflict, DomainError, NotFound
from core.people import person_name
from core.permissions import require_role
from core.roles import (
    ADMINISTRATOR,
    CASHIER,
    COUNT_TEAM,
    DEALER,
    FLOOR_SUPERVISOR,
    ROLES,
    SIGNING_ROLES,
    role_of,
)

from . import two_person
from .lineage import lineage_add
from .services.memberships import memberships_for_new_account
from .setup_links import SetupLink, issue_link
from .staff_models import StaffLineage, StaffProfile, TwoPersonChange
from .staff_selectors import cardrooms_of, pending_staff_changes

#: The roles of the floor and the cage, which the staff screen lists and a floor supervisor
#: asks for (a dealer alone; the others through a two-person change).
STAFF_ROLES = (DEALER, COUNT_TEAM, CASHIER, FLOOR_SUPERVISOR)
#: What a floor supervisor may propose; compliance and administrators are an administrator's.
PROPOSED_ROLES = (COUNT_TEAM, CASHIER, FLOOR_SUPERVISOR)
#: Who approves a proposed account or role: a second floor supervisor, or an administrator.
APPROVERS = (FLOOR_SUPERVISOR, ADMINISTRATOR)


def needs_second_person(role: str, by: User) -> bool:
    """Whether ``by`` giving ``role`` needs a two-person change: yes, for a role that approves
    or signs given by anyone but an administrator."""
    return role in SIGNING_ROLES and role_of(by) != ADMINISTRATOR


def _check_role_given(role: str, by: User) -> None:
    maker = require_role(by, FLOOR_SUPERVISOR, ADMINISTRATOR, action="make staff accounts")
    if role not in ROLES:
        raise DomainError(f"There is no role {role!r}.", field="role")
    if maker == FLOOR_SUPERVISOR and role != DEALER:
        raise DomainError(
            f"A {role.lower()} account approves or signs: it is made by an administrator, or "
            "proposed here and approved by a second person.",
            field="role",
        )


def _check_new_username(username: str) -> str:
    username = username.strip()
    if not username:
        raise DomainError("Give the account a username.", field="username")
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(f"The username {username!r} is taken.", field="username")
    proposed = pending_staff_changes().filter(kind=TwoPersonChange.Kind.STAFF_ACCOUNT)
    if any(c.values["username"].lower() == username.lower() for c in proposed):
        raise Conflict(f"An account {username!r} is proposed already.", field="username")
    return username


def _check_names(first_name: str) -> None:
    if not first_name.strip():
        raise DomainError(
            "Give the person's first name: screens show people by name.", field="first_name"
        )


def _make_account(
    *, username: str, first_name: str, last_name: str, role: str, makers: list[tuple[User, str]]
) -> User:
    user = User(username=username, first_name=first_name.strip(), last_name=last_name.strip())
    user.set_unusable_password()
    user.save()
    StaffProfile.objects.create(user=user)
    user.groups.set([Group.objects.get_or_create(name=role)[0]])
    for maker, how in makers:
        lineage_add(account=user, maker=maker, how=how, role=role)
    memberships_for_new_account(user, makers[0][0])
    return user


@transaction.atomic
def staff_create(
    *, username: str, first_name: str, last_name: str, role: str, by: User
) -> SetupLink:
    """A new account in one role, made alone: any role by an administrator, a dealer by a floor
    supervisor. It has no password yet: the answer is its one-time setup link."""
    _check_role_given(role, by)
    username = _check_new_username(username)
    _check_names(first_name)
    user = _make_account(
        username=username,
        first_name=first_name,
        last_name=last_name,
        role=role,
        makers=[(by, StaffLineage.How.MADE)],
    )
    audit_record(
        actor=by,
        action=AuditAction.STAFF_CREATED,
        target=user,
        payload={"username": username, "name": person_name(user), "role": role},
    )
    return issue_link(user, by)


@transaction.atomic
def staff_account_propose(
    *, username: str, first_name: str, last_name: str, role: str, reason: str, by: User
) -> TwoPersonChange:
    """A floor supervisor proposes an account in a role that approves or signs."""
    require_role(by, FLOOR_SUPERVISOR, action="propose staff accounts")
    if role not in PROPOSED_ROLES:
        raise DomainError(
            f"A floor supervisor proposes a {_roles_text(PROPOSED_ROLES)} account; a "
            f"{role.lower()} account is made by an administrator.",
            field="role",
        )
    username = _check_new_username(username)
    _check_names(first_name)
    values = {"username": username, "first_name": first_name.strip(),
              "last_name": last_name.strip(), "role": role}  # fmt: skip
    return two_person.change_propose(
        kind=TwoPersonChange.Kind.STAFF_ACCOUNT, values=values, reason=reason, by=by
    )


def _apply_account(change: TwoPersonChange, approver: User) -> User:
    values = change.values
    _check_new_username_at_approval(values["username"])
    user = _make_account(
        username=values["username"],
        first_name=values["first_name"],
        last_name=values["last_name"],
        role=values["role"],
        makers=[(_proposer(change), StaffLineage.How.MADE),
                (approver, StaffLineage.How.APPROVED)],
    )  # fmt: skip
    audit_record(
        actor=approver,
        action=AuditAction.STAFF_CREATED,
        target=user,
        payload={"username": user.username, "name": person_name(user), "role": values["role"],
                 "change": change.pk},
    )  # fmt: skip
    issue_link(user, approver)  # the approver hands the link over
    return user


def _check_new_username_at_approval(username: str) -> None:
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(f"The username {username!r} was taken since.", field="username")


@transaction.atomic
def staff_role_set(*, user: User, role: str, by: User) -> User:
    """The account's one role, in place of any it held, given alone: any role by an
    administrator; the dealer role, to a dealer's account, by a floor supervisor."""
    _check_role_given(role, by)
    user = _staff_member(user, by)
    if role_of(by) != ADMINISTRATOR and role_of(user) in SIGNING_ROLES:
        raise DomainError(
            f"{person_name(user)} is a {role_of(user)!s}: an administrator changes that role.",
            field="role",
        )
    return _give_role(user, role, by, makers=[(by, StaffLineage.How.PROMOTED)])


def _give_role(user: User, role: str, by: User, *, makers: list[tuple[User, str]]) -> User:
    before = role_of(user)
    if before == role:
        raise DomainError(f"{person_name(user)} is a {role.lower()} already.", field="role")
    kept = user.groups.exclude(name__in=ROLES)
    user.groups.set([*kept, Group.objects.get_or_create(name=role)[0]])
    for maker, how in makers:
        lineage_add(account=user, maker=maker, how=how, role=role)
    audit_record(
        actor=by,
        action=AuditAction.STAFF_ROLE_SET,
        target=user,
        payload={"username": user.get_username(), "role": role, "was": before},
    )
    return user


@transaction.atomic
def staff_role_propose(*, user: User, role: str, reason: str, by: User) -> TwoPersonChange:
    """A floor supervisor proposes giving an account a role that approves or signs."""
    require_role(by, FLOOR_SUPERVISOR, action="propose staff roles")
    if role not in PROPOSED_ROLES:
        raise DomainError(
            f"A floor supervisor proposes the {_roles_text(PROPOSED_ROLES)} role; the "
            f"{role.lower()} role is given by an administrator.",
            field="role",
        )
    user = _staff_member(user, by)
    if role_of(user) == role:
        raise DomainError(f"{person_name(user)} is a {role.lower()} already.", field="role")
    return two_person.change_propose(
        kind=TwoPersonChange.Kind.STAFF_ROLE,
        values={"username": user.username, "role": role, "was": role_of(user)},
        reason=reason,
        by=by,
        subject=user,
    )


def _apply_role(change: TwoPersonChange, approver: User) -> User:
    assert change.subject_id is not None
    user = User.objects.select_for_update().get(pk=change.subject_id)
    if not user.is_active:
        raise Conflict(f"{person_name(user)} is deactivated.", field="subject")
    return _give_role(
        user,
        change.values["role"],
        approver,
        makers=[(_proposer(change), StaffLineage.How.PROMOTED),
                (approver, StaffLineage.How.APPROVED)],
    )  # fmt: skip


two_person.register(
    TwoPersonChange.Kind.STAFF_ACCOUNT,
    two_person.ChangeKind("A staff account", (FLOOR_SUPERVISOR,), APPROVERS, _apply_account),
)
two_person.register(
    TwoPersonChange.Kind.STAFF_ROLE,
    two_person.ChangeKind("A staff role", (FLOOR_SUPERVISOR,), APPROVERS, _apply_role),
)


def _proposer(change: TwoPersonChange) -> User:
    assert change.proposed_by is not None  # a staff change always has its proposer
    return change.proposed_by


def _roles_text(roles: tuple[str, ...]) -> str:
    names = [role.lower() for role in roles]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _staff_member(user: User, by: User) -> User:
    user = User.objects.select_for_update().get(pk=user.pk)
    scope = scoping.current()
    rooms = cardrooms_of(user)
    if scope is not None and rooms and not rooms & scope:
        raise NotFound("No such staff member.")  # another room's: not there for this one
    if user.pk == by.pk:
        raise DomainError("You cannot change your own account here.", field="user")
    if user.is_superuser or (role_of(user) == ADMINISTRATOR and role_of(by) != ADMINISTRATOR):
        raise DomainError("Only a staff account is managed here.", field="user")
    return user


@transaction.atomic
def staff_deactivate(*, user: User, reason: str, by: User) -> User:
    """The account can no longer sign in; its sessions and device tokens end now. A floor
    supervisor deactivates any staff account but an administrator's (a lost badge cannot
    wait); an administrator, any but their own."""
    require_role(by, FLOOR_SUPERVISOR, ADMINISTRATOR, action="deactivate staff accounts")
    if not reason.strip():
        raise DomainError("Say why the account is deactivated.", field="reason")
    user = _staff_member(user, by)
    if not user.is_active:
        raise Conflict(f"{person_name(user)} is deactivated already.", field="user")
    user.is_active = False
    user.save(update_fields=["is_active"])  # the save revokes tokens and sessions
    audit_record(
        actor=by,
        action=AuditAction.STAFF_DEACTIVATED,
        target=user,
        payload={"username": user.get_username(), "reason": reason.strip()},
    )
    return user
