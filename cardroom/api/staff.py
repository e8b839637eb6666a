"""REST API for staff accounts (floor supervisors and administrators), their two-person
changes, and a person's own set-up and signing PIN. Views parse, call one service, answer."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import DomainError
from core.people import person_name
from core.roles import ADMINISTRATOR, FLOOR_SUPERVISOR, ROLES
from tables import setup_links, signatures, staff, staff_selectors, two_person
from tables.models import TwoPersonChange

from .base import ServiceView, actor
from .idempotency import idempotent
from .inputs import StrictSerializer
from .permissions import EVERY_ROLE
from .signing import ChangeDecisionIn, signature_input

KEEPERS = (FLOOR_SUPERVISOR, ADMINISTRATOR)


class PersonOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()


def person(user: User | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.pk, "username": user.get_username(), "name": person_name(user)}


class StaffOut(serializers.Serializer):
    id = serializers.IntegerField(source="user.pk")
    username = serializers.CharField(source="user.username")
    name = serializers.SerializerMethodField()
    role = serializers.CharField(allow_null=True)
    active = serializers.BooleanField(source="user.is_active")
    set_up = serializers.SerializerMethodField()
    password_change_due = serializers.BooleanField()
    makers = serializers.SerializerMethodField()

    def get_name(self, row: staff_selectors.StaffRow) -> str:
        return person_name(row.user)

    def get_set_up(self, row: staff_selectors.StaffRow) -> bool:
        return not row.waiting_for_set_up

    def get_makers(self, row: staff_selectors.StaffRow) -> list[dict[str, Any]]:
        return [{**(person(entry.maker) or {}), "how": entry.how} for entry in row.makers]


class SetupLinkOut(serializers.Serializer):
    account = PersonOut()
    setup_link = serializers.CharField(help_text="Hand it to the person: it works once, a day.")


class StaffIn(StrictSerializer):
    username = serializers.CharField(max_length=150)
    first_name = serializers.CharField(max_length=150)
    last_name = serializers.CharField(max_length=150, required=False, default="")
    role = serializers.ChoiceField(choices=ROLES)


class RoleIn(StrictSerializer):
    role = serializers.ChoiceField(choices=ROLES)


class DeactivateIn(StrictSerializer):
    reason = serializers.CharField(max_length=200)


class StaffChangeIn(StrictSerializer):
    """A proposal: a new account (``username``, ``first_name``, ``last_name``) or a role for
    an existing one (``account``), in a role that approves or signs."""

    role = serializers.ChoiceField(choices=ROLES)
    reason = serializers.CharField(max_length=2000)
    account = serializers.IntegerField(required=False, min_value=1)
    username = serializers.CharField(max_length=150, required=False)
    first_name = serializers.CharField(max_length=150, required=False)
    last_name = serializers.CharField(max_length=150, required=False, default="")


class StaffChangeOut(serializers.ModelSerializer):
    proposed_by = serializers.SerializerMethodField()
    subject = serializers.SerializerMethodField()
    decision = serializers.SerializerMethodField()

    class Meta:
        model = TwoPersonChange
        fields = ["id", "kind", "subject", "values", "reason", "proposed_by", "proposed_at",
                  "decision"]  # fmt: skip

    def get_proposed_by(self, change: TwoPersonChange) -> dict[str, Any] | None:
        return person(change.proposed_by)

    def get_subject(self, change: TwoPersonChange) -> dict[str, Any] | None:
        return person(change.subject)

    def get_decision(self, change: TwoPersonChange) -> dict[str, Any] | None:
        decision = getattr(change, "decision", None)
        if decision is None:
            return None
        return {"outcome": decision.outcome, "by": person(decision.decided_by),
                "at": decision.decided_at, "reason": decision.reason,
                "result": person(decision.result)}  # fmt: skip


def _link_answer(request: Request, link: setup_links.SetupLink, status: int = 201) -> Response:
    body = {"account": person(link.user), "setup_link": request.build_absolute_uri(link.path)}
    return Response(SetupLinkOut(body).data, status=status)


class StaffList(ServiceView):
    read_roles = KEEPERS
    write_roles = KEEPERS
    input_serializer = StaffIn

    @extend_schema(responses=StaffOut(many=True))
    def get(self, request: Request) -> Response:
        rows = staff_selectors.staff_rows(actor(request), staff.STAFF_ROLES)
        return Response(StaffOut(rows, many=True).data)

    @extend_schema(request=StaffIn, responses={201: SetupLinkOut})
    @idempotent
    def post(self, request: Request) -> Response:
        link = staff.staff_create(**self.parse(request), by=actor(request))
        return _link_answer(request, link)


class StaffRole(ServiceView):
    write_roles = KEEPERS
    input_serializer = RoleIn

    @extend_schema(request=RoleIn, responses=PersonOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        member = get_object_or_404(_staff(), pk=pk)
        user = staff.staff_role_set(user=member, **self.parse(request), by=actor(request))
        return Response(PersonOut(person(user)).data)


class StaffDeactivate(ServiceView):
    write_roles = KEEPERS
    input_serializer = DeactivateIn

    @extend_schema(request=DeactivateIn, responses=PersonOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        member = get_object_or_404(_staff(), pk=pk)
        user = staff.staff_deactivate(user=member, **self.parse(request), by=actor(request))
        return Response(PersonOut(person(user)).data)


class StaffSetupLink(ServiceView):
    write_roles = KEEPERS

    @extend_schema(request=None, responses={201: SetupLinkOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        member = get_object_or_404(_staff(), pk=pk)
        return _link_answer(request, setup_links.setup_link_reissue(user=member, by=actor(request)))


class StaffChangeList(generics.ListAPIView, ServiceView):
    serializer_class = StaffChangeOut
    read_roles = KEEPERS
    write_roles = (FLOOR_SUPERVISOR,)
    input_serializer = StaffChangeIn

    def get_queryset(self) -> QuerySet[TwoPersonChange]:
        return TwoPersonChange.objects.filter(
            kind__in=[TwoPersonChange.Kind.STAFF_ACCOUNT, TwoPersonChange.Kind.STAFF_ROLE]
        ).select_related("proposed_by", "subject", "decision__decided_by", "decision__result")

    @extend_schema(request=StaffChangeIn, responses={201: StaffChangeOut})
    @idempotent
    def post(self, request: Request) -> Response:
        data, by = self.parse(request), actor(request)
        if "account" in data:
            member = get_object_or_404(_staff(), pk=data["account"])
            change = staff.staff_role_propose(
                user=member, role=data["role"], reason=data["reason"], by=by
            )
        else:
            for name in ("username", "first_name"):
                if not data.get(name):
                    raise DomainError(f"A new account needs its {name}.", field=name)
            fields = {k: data[k] for k in ("username", "first_name", "last_name", "role")}
            change = staff.staff_account_propose(**fields, reason=data["reason"], by=by)
        return Response(StaffChangeOut(change).data, status=201)


class StaffChangeDecision(ServiceView):
    """approve (signed by the approver), reject or withdraw, by the URL's ``decision``."""

    write_roles = KEEPERS
    input_serializer = ChangeDecisionIn
    decision = ""

    @extend_schema(request=ChangeDecisionIn, responses=StaffChangeOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        # A staff change only: the other kinds are decided at their own URLs.
        staff_kinds = [TwoPersonChange.Kind.STAFF_ACCOUNT, TwoPersonChange.Kind.STAFF_ROLE]
        change = get_object_or_404(TwoPersonChange, pk=pk, kind__in=staff_kinds)
        data, by = self.parse(request), actor(request)
        if self.decision == "approve":
            signature = signature_input(request, data.get("signature"))
            two_person.change_approve(change=change, signature=signature, by=by)
        elif self.decision == "reject":
            two_person.change_reject(change=change, reason=data["reason"], by=by)
        else:
            two_person.change_withdraw(change=change, by=by)
        change = self.get_changed(pk)
        if self.decision == "approve" and change.kind == TwoPersonChange.Kind.STAFF_ACCOUNT:
            made = change.decision.result
            assert made is not None
            link = setup_links.setup_link(made)
            body = StaffChangeOut(change).data
            return Response({**body, "setup_link": request.build_absolute_uri(link.path)})
        return Response(StaffChangeOut(change).data)

    def get_changed(self, pk: int) -> TwoPersonChange:
        return TwoPersonChange.objects.select_related("decision__result").get(pk=pk)


class SetupIn(StrictSerializer):
    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=128)
    password = serializers.CharField(max_length=128, trim_whitespace=False)
    pin = serializers.CharField(max_length=12, required=False, default="", trim_whitespace=False)


class AccountSetUp(ServiceView):
    """The person of a new account sets its password (and a PIN) with the one-time link's
    ``uid`` and ``token``: no sign-in needed."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    input_serializer = SetupIn

    @extend_schema(request=SetupIn, responses=PersonOut)
    def post(self, request: Request) -> Response:
        data = self.parse(request)
        user = setup_links.account_of_link(data["uid"])
        if user is None:
            raise DomainError("This set-up link is not one of ours.", field="uid")
        user = setup_links.account_set_up(
            user=user, token=data["token"], password=data["password"], pin=data["pin"]
        )
        return Response(PersonOut(person(user)).data)


class PinIn(StrictSerializer):
    password = serializers.CharField(max_length=128, trim_whitespace=False)
    pin = serializers.CharField(max_length=12, trim_whitespace=False)


class OwnPin(ServiceView):
    """The requester sets their signing PIN, confirming it with their password."""

    write_roles = EVERY_ROLE
    input_serializer = PinIn

    @extend_schema(request=PinIn, responses={204: None})
    def post(self, request: Request) -> Response:
        by = actor(request)
        signatures.pin_set(user=by, **self.parse(request), by=by)
        return Response(status=204)


def _staff() -> QuerySet[User]:
    """The accounts a request may manage: its cardrooms' people (and those of none yet)."""
    return staff_selectors.in_the_requests_cardrooms(User.objects.all())
