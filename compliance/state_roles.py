"""Role membership in ``verify_state`` (``compliance.state``): each account's role groups
against its audited role (``audit.role_events``: the latest audit event about the account whose
payload has ``"role"``).

Every account in a role group must have an audited role, and be in that group alone; an
account whose audited role is gone from its groups is reported too. An account made outside
the services (``createsuperuser``, a fixture adding groups directly) is reported once it is put
in a role group: give roles through the services, which record the event (``tables.staff``,
the administrators' grants), or, for set-up, record the event as they do (``load_demo`` does).
A superuser with no role group holds no role (``core.roles.role_of``).
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.models import User

from audit.role_events import latest_role_events
from core.roles import ROLES

from .entries import Offence


def check_roles() -> int:
    """Every account in a role group, or with an audited role; answers how many."""
    held: dict[int, set[str]] = defaultdict(set)
    memberships = User.groups.through.objects.filter(group__name__in=ROLES)
    for user_id, group in memberships.values_list("user_id", "group__name"):
        held[user_id].add(group)
    audited = latest_role_events()
    names = dict(User.objects.filter(pk__in=set(held) | set(audited)).values_list("pk", "username"))
    for pk in sorted(set(held) | {pk for pk, event in audited.items() if event.role}):
        if pk not in names:
            continue  # an account deleted since: no group can hold it
        groups, event = held.get(pk, set()), audited.get(pk)
        expected = {event.role} if event is not None and event.role else set()
        if groups == expected:
            continue
        who = f"{names[pk]} is in the {', '.join(sorted(groups))} group" if groups else ""
        if event is None:
            problem = f"{who}, but no audit event gave the account a role"
        else:
            said = (
                f"its audited role is {event.role or 'none'} (event #{event.seq}, {event.action})"
            )
            problem = (
                f"{who}, but {said}" if who else f"{names[pk]}: {said}, but it is in no role group"
            )
        raise Offence(f"auth_user #{pk}", problem)
    return len(set(held) | set(audited))
