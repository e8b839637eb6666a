"""Reads of staff accounts: who is on the staff screen, their makers, and the two-person
changes waiting for a decision."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet, Subquery

from core import scoping
from core.roles import ADMINISTRATOR, ROLES, role_of
from patrons.models import Cardroom

from .models.memberships import CardroomMembership
from .staff_models import StaffLineage, StaffProfile, TwoPersonChange


@dataclass(frozen=True)
class StaffRow:
    user: User
    role: str | None
    profile: StaffProfile | None
    makers: list[StaffLineage]
    #: The names of the cardrooms the person works in (of the viewer's).
    cardrooms: list[str]

    @property
    def waiting_for_set_up(self) -> bool:
        return self.profile is not None and self.profile.set_up_at is None

    @property
    def password_change_due(self) -> bool:
        return self.profile is not None and self.profile.password_change_due


def staff_rows(viewer: User, roles: tuple[str, ...]) -> list[StaffRow]:
    """The accounts in ``roles`` (an administrator sees every role's), active first, by name."""
    shown = ROLES if role_of(viewer) == ADMINISTRATOR else roles
    members = (
        in_the_requests_cardrooms(User.objects.filter(groups__name__in=shown, is_superuser=False))
        .prefetch_related("groups")
        .select_related("staff_profile")
        .distinct()
        .order_by("-is_active", "last_name", "first_name", "username")
    )
    lineage: dict[int, list[StaffLineage]] = {}
    for entry in StaffLineage.objects.filter(account__in=members).select_related("maker"):
        lineage.setdefault(entry.account_id, []).append(entry)
    rooms: dict[int, list[str]] = {}
    memberships = CardroomMembership._base_manager.filter(
        user__in=members, cardroom_id__in=cardrooms_of(viewer)
    ).order_by("cardroom__name")
    for user_id, name in memberships.values_list("user_id", "cardroom__name"):
        rooms.setdefault(user_id, []).append(name)
    return [
        StaffRow(
            member,
            role_of(member),
            _profile(member),
            lineage.get(member.pk, []),
            rooms.get(member.pk, []),
        )
        for member in members
    ]


def in_the_requests_cardrooms(users: QuerySet[User]) -> QuerySet[User]:
    """The accounts of the request's cardrooms, and those of none yet (made outside the
    services, waiting for a cardroom)."""
    scope = scoping.current()
    if scope is None:
        return users
    rooms = CardroomMembership._base_manager.filter(cardroom_id__in=scope).values("user_id")
    unplaced = CardroomMembership._base_manager.values("user_id")
    return users.filter(Q(pk__in=Subquery(rooms)) | ~Q(pk__in=Subquery(unplaced)))


def _profile(user: User) -> StaffProfile | None:
    # A missing one-to-one row raises an AttributeError too (RelatedObjectDoesNotExist).
    profile: StaffProfile | None = getattr(user, "staff_profile", None)
    return profile


def pending_staff_changes() -> QuerySet[TwoPersonChange]:
    return TwoPersonChange.objects.filter(
        decision__isnull=True,
        kind__in=[TwoPersonChange.Kind.STAFF_ACCOUNT, TwoPersonChange.Kind.STAFF_ROLE],
    ).select_related("proposed_by", "subject")


def decided_staff_changes(limit: int = 20) -> QuerySet[TwoPersonChange]:
    return (
        TwoPersonChange.objects.filter(
            decision__isnull=False,
            kind__in=[TwoPersonChange.Kind.STAFF_ACCOUNT, TwoPersonChange.Kind.STAFF_ROLE],
        )
        .select_related("proposed_by", "subject", "decision__decided_by", "decision__result")
        .order_by("-decision__decided_at")[:limit]
    )


_CARDROOMS = "_cardroom_ids"


def cardrooms_of(user: User) -> frozenset[int]:
    """The cardrooms the user works in (none for an anonymous or inactive one), kept on the
    user object as its role is (one query a request, whatever reads it)."""
    if not user.is_authenticated or not user.is_active:
        return frozenset()
    known: frozenset[int] | None = getattr(user, _CARDROOMS, None)
    if known is None:
        if user.is_superuser:  # the deployment's operator (createsuperuser): every room
            known = frozenset(Cardroom._base_manager.values_list("pk", flat=True))
        else:
            rows = CardroomMembership._base_manager.filter(user_id=user.pk)
            known = frozenset(rows.values_list("cardroom_id", flat=True))
        setattr(user, _CARDROOMS, known)
    return known


def cardrooms_known(user: User, cardroom_ids: frozenset[int]) -> None:
    """Tell ``cardrooms_of`` the user's cardrooms, known from elsewhere (the API's cache)."""
    setattr(user, _CARDROOMS, cardroom_ids)
