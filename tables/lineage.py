"""The maker's line (design.md 7): who made an account or gave it a role, and the rule that no
approval crosses that line — an account never approves a change proposed by the person who
made or promoted it, nor the reverse."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from core.errors import PermissionDenied
from core.people import person_name

from .staff_models import StaffLineage


def lineage_add(*, account: User, maker: User, how: str, role: str) -> StaffLineage:
    return StaffLineage.objects.create(
        account=account, maker=maker, how=how, role=role, at=timezone.now()
    )


def related_by_making(first: User, second: User) -> bool:
    """Whether one of the two made or promoted the other (or approved the change that did)."""
    return StaffLineage.objects.filter(
        Q(account=first, maker=second) | Q(account=second, maker=first)
    ).exists()


def require_independent(*, approver: User, proposer: User | None, what: str) -> None:
    """The approver of a change is a second person: not its proposer, not made or promoted by
    the proposer, and not the proposer's own maker."""
    if proposer is None:
        return
    if approver.pk == proposer.pk:
        raise PermissionDenied(f"{what} needs a second person: not the one who proposed it.")
    if related_by_making(approver, proposer):
        raise PermissionDenied(
            f"{person_name(approver)} and {person_name(proposer)} are on one maker's line (one "
            f"made or promoted the other): {what.lower()} needs a person independent of the "
            "proposer."
        )
