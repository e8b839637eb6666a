"""REST API for cardrooms, tables, settings changes, sessions, seats, stacks and the rotation.

Views only parse, call one service and answer; the services check the rules (R16, R17).
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import django_filters
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, StepView, actor
from cardroom.api.fields import (
    AsciiIntegerField,
    BoundedDictField,
    IdField,
    MoneyField,
    PersonNameField,
    RowField,
    SeatField,
    SignedMoneyField,
    WallClockField,
    seat_keys,
)
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.paytables import ChangeFiguresOut
from cardroom.api.signing import ChangeDecisionIn, signature_input
from core.errors import DomainError, PermissionDenied
from core.inputs import AsciiDigitsForm
from core.roles import ADMINISTRATOR, FLOOR_SUPERVISOR, PLAY_READERS, TABLE_STAFF
from engine.table import MAX_SEATS
from patrons.identity import IdentityInput
from tables import figures, rules, selectors
from tables.models import (
    BANKING_CHOICES,
    Cardroom,
    Player,
    RotationRecord,
    Seating,
    SelfApprovalChange,
    SettingChange,
    StackEntry,
    Table,
    TableSession,
    TableSettings,
    Tender,
)
from tables.rotation import designated_player_rotate
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import (
    player_create,
    seat_player,
    seating_come_back,
    seating_flag_proposition,
    seating_leave,
    seating_sit_out,
    seating_waive_dp,
)
from tables.services.self_approval import self_approval_change_decide, self_approval_change_propose
from tables.services.sessions import table_close, table_dealer_change, table_open
from tables.services.setting_changes import (
    setting_change_approve,
    setting_change_propose,
    setting_change_reject,
    setting_change_withdraw,
)
from tables.services.stacks import stack_add, stack_cash_out

SUPERVISOR = (FLOOR_SUPERVISOR,)
#: The most keys a table's settings (or a change of them) may name: a handful exist.
SETTINGS_KEYS = 50

# --- output ---------------------------------------------------------------------------------


class CardroomOut(serializers.ModelSerializer):
    gaming_day_starts_at = WallClockField()

    class Meta:
        model = Cardroom
        fields = ["id", "name", "time_zone", "gaming_day_starts_at", "self_approval_allowed"]


class SettingsOut(serializers.ModelSerializer):
    ante_min = MoneyField()
    ante_max = MoneyField()
    bonus_min = MoneyField()
    bonus_max = MoneyField()
    chip_unit = MoneyField()
    max_aggregate_payout = MoneyField(allow_null=True)
    rake_amount = MoneyField()
    dp_min_bank = MoneyField()

    class Meta:
        model = TableSettings
        fields = ["version", "created_at", *rules.SETTINGS]


class SessionOut(serializers.ModelSerializer):
    class Meta:
        model = TableSession
        fields = ["id", "dealer", "opened_by", "opened_at", "closed_by", "closed_at"]


class SeatingOut(serializers.ModelSerializer):
    stack = MoneyField()
    player_name = serializers.CharField(source="player.name", read_only=True)
    call_floor = serializers.SerializerMethodField(
        help_text="the seat is held: no wagers, and only a floor supervisor moves its chips"
    )

    class Meta:
        model = Seating
        fields = [
            "id",
            "table",
            "seat",
            "player",
            "player_name",
            "stack",
            "sat_at",
            "left_at",
            "sitting_out",
            "dp_waiver",
            "proposition_player",
            "call_floor",
        ]

    def get_call_floor(self, seating: Seating) -> bool:
        return seating.exclusion_hold_id is not None


class TableOut(serializers.ModelSerializer):
    class Meta:
        model = Table
        fields = ["id", "cardroom", "name", "seat_count", "banking", "created_at"]


class TableDetailOut(TableOut):
    settings = serializers.SerializerMethodField()
    session = serializers.SerializerMethodField()
    seatings = serializers.SerializerMethodField()

    class Meta(TableOut.Meta):
        fields = [*TableOut.Meta.fields, "settings", "session", "seatings"]

    @extend_schema(responses=SettingsOut)
    def get_settings(self, table: Table) -> dict:
        return SettingsOut(selectors.current_settings(table)).data

    def get_session(self, table: Table) -> dict | None:
        session = selectors.open_session(table)
        return SessionOut(session).data if session else None

    @extend_schema_field(SeatingOut(many=True, allow_null=True))
    def get_seatings(self, table: Table) -> list[Any] | None:
        """The players and their stacks, for those who see the table's stacks (item 5);
        null for anybody else."""
        viewer = self.context.get("viewer")
        if viewer is not None and not viewer.sees_stacks(table.pk):
            return None
        return list(SeatingOut(selectors.seated(table), many=True).data)


class SettingChangeOut(serializers.ModelSerializer):
    version = serializers.IntegerField(
        source="result.version", default=None, allow_null=True, read_only=True
    )
    figures = serializers.SerializerMethodField()
    proposed_by_name = PersonNameField(source="proposed_by")
    decided_by_name = PersonNameField(source="decided_by", allow_null=True)

    class Meta:
        model = SettingChange
        fields = [
            "id",
            "table",
            "proposed_by",
            "proposed_by_name",
            "proposed_at",
            "reason",
            "new_values",
            "old_values",
            "status",
            "decided_by",
            "decided_by_name",
            "decided_at",
            "self_approved",
            "version",
            "figures",
        ]

    @extend_schema_field(ChangeFiguresOut)
    def get_figures(self, change: SettingChange) -> dict[str, Any]:
        """R17: what the settings it makes pay, next to those it replaces (game-math.md)."""
        current = None
        if change.status == SettingChange.Status.PENDING:
            # One read of the settings in force per table, whatever the number of changes.
            cache = self.context.setdefault("current_settings", {})
            if change.table_id not in cache:
                cache[change.table_id] = selectors.current_settings(change.table)
            current = cache[change.table_id]
        both = figures.setting_change_figures(change, current)
        return {name: figures.figures_json(value) for name, value in both.items()}


class SelfApprovalChangeOut(serializers.ModelSerializer):
    status = serializers.SerializerMethodField()
    decided_by = serializers.IntegerField(
        source="decision.decided_by_id", default=None, allow_null=True, read_only=True
    )
    decided_at = serializers.DateTimeField(
        source="decision.decided_at", default=None, allow_null=True, read_only=True
    )
    decision_reason = serializers.CharField(
        source="decision.reason", default=None, allow_null=True, read_only=True
    )

    class Meta:
        model = SelfApprovalChange
        fields = [
            "id",
            "cardroom",
            "allowed",
            "reason",
            "proposed_by",
            "proposed_at",
            "status",
            "decided_by",
            "decided_at",
            "decision_reason",
        ]

    def get_status(self, change: SelfApprovalChange) -> str:
        decision = getattr(change, "decision", None)
        if decision is None:
            return "pending"
        return "approved" if decision.approved else "rejected"


class PlayerOut(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "cardroom", "name", "created_at"]


class StackEntryOut(serializers.ModelSerializer):
    amount = SignedMoneyField()

    class Meta:
        model = StackEntry
        fields = [
            "id",
            "seating",
            "amount",
            "reason",
            "tender",
            "gaming_day",
            "shift",
            "actor",
            "created_at",
        ]


class RotationOut(serializers.ModelSerializer):
    class Meta:
        model = RotationRecord
        fields = [
            "id",
            "table",
            "session",
            "created_at",
            "method",
            "offers",
            "draw",
            "designated_player",
            "player",
            "proposition_player",
            "consecutive",
        ]


# --- input ----------------------------------------------------------------------------------


class CardroomIn(StrictSerializer):
    """A new cardroom; self-approval starts off (it changes through a two-person change)."""

    name = serializers.CharField(max_length=100)
    time_zone = serializers.CharField(max_length=64, default="UTC")
    gaming_day_starts_at = WallClockField(default=time(6, 0))


class SelfApprovalChangeIn(StrictSerializer):
    allowed = serializers.BooleanField()
    reason = serializers.CharField(max_length=2000)


class TableIn(StrictSerializer):
    cardroom = RowField(Cardroom.objects.all())
    name = serializers.CharField(max_length=100)
    banking = serializers.ChoiceField(choices=BANKING_CHOICES)
    seat_count = AsciiIntegerField(default=7)
    settings = BoundedDictField(required=False, default=dict, max_length=SETTINGS_KEYS)


class SettingChangeIn(StrictSerializer):
    values = BoundedDictField(max_length=SETTINGS_KEYS)
    reason = serializers.CharField(max_length=2000)


class ReasonIn(StrictSerializer):
    reason = serializers.CharField(max_length=2000, required=False, default="")


class DealerIn(StrictSerializer):
    dealer = IdField()


class PlayerIdentityIn(StrictSerializer):
    """A player's identity, given at registration (``patrons``): checked against the
    exclusion lists with the name."""

    date_of_birth = serializers.DateField()
    id_type = serializers.CharField(max_length=20)
    id_number = serializers.CharField(max_length=60)
    id_issuer = serializers.CharField(max_length=60)
    id_expires = serializers.DateField()


class PlayerIn(StrictSerializer):
    cardroom = RowField(Cardroom.objects.all())
    name = serializers.CharField(max_length=100)
    identity = PlayerIdentityIn(required=False, allow_null=True, default=None)


TENDER_HELP = (
    "cash (chips sold at the table, cash into the drop box) or chips (brought from the cage); "
    "default: cash at a house-banked table, chips at a designated-player table"
)


def TenderField() -> serializers.ChoiceField:  # noqa: N802 - reads like a field class
    return serializers.ChoiceField(
        choices=Tender.choices, required=False, allow_null=True, default=None, help_text=TENDER_HELP
    )


class SeatIn(StrictSerializer):
    player = RowField(Player.objects.all())
    seat = SeatField()
    buy_in = MoneyField(required=False, default="0")
    tender = TenderField()


class AmountIn(StrictSerializer):
    amount = MoneyField()
    tender = TenderField()


class CashOutIn(StrictSerializer):
    amount = MoneyField(required=False, allow_null=True, default=None)


class FlagIn(StrictSerializer):
    value = serializers.BooleanField()


class RotationIn(StrictSerializer):
    refusals = serializers.ListField(
        child=SeatField(), required=False, default=list, max_length=MAX_SEATS
    )
    draw_cards = BoundedDictField(
        child=serializers.CharField(max_length=4),
        required=False,
        allow_null=True,
        default=None,
        max_length=MAX_SEATS,
    )


# --- views ----------------------------------------------------------------------------------


class CardroomList(generics.ListAPIView, ServiceView):
    """Cardrooms; an administrator creates one (hardening item 4: not a floor supervisor)."""

    queryset = Cardroom.objects.order_by("name")
    serializer_class = CardroomOut
    write_roles = (ADMINISTRATOR,)
    input_serializer = CardroomIn

    @extend_schema(request=CardroomIn, responses={201: CardroomOut})
    @idempotent
    def post(self, request: Request) -> Response:
        cardroom = cardroom_create(**self.parse(request), by=actor(request))
        return Response(CardroomOut(cardroom).data, status=201)


class SelfApprovalChangeList(generics.ListAPIView, ServiceView):
    """R17's self-approval switch of a cardroom: its changes, newest first; an administrator
    proposes one, a second administrator approves it."""

    serializer_class = SelfApprovalChangeOut
    write_roles = (ADMINISTRATOR,)
    input_serializer = SelfApprovalChangeIn

    def get_queryset(self) -> QuerySet[SelfApprovalChange]:
        if getattr(self, "swagger_fake_view", False):
            return SelfApprovalChange.objects.none()
        cardroom = get_object_or_404(Cardroom, pk=self.kwargs["pk"])
        return selectors.self_approval_history(cardroom)

    @extend_schema(request=SelfApprovalChangeIn, responses={201: SelfApprovalChangeOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = self_approval_change_propose(
            cardroom=get_object_or_404(Cardroom, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(SelfApprovalChangeOut(change).data, status=201)


class SelfApprovalDecisionView(ServiceView):
    """approve / reject, by the URL's ``decision``."""

    write_roles = (ADMINISTRATOR,)
    input_serializer = ChangeDecisionIn
    decision = ""

    @extend_schema(request=ChangeDecisionIn, responses=SelfApprovalChangeOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = get_object_or_404(SelfApprovalChange, pk=pk)
        data = self.parse(request)
        self_approval_change_decide(
            change=change,
            approve=self.decision == "approve",
            reason=data["reason"],
            signature=signature_input(request, data.get("signature")),
            by=actor(request),
        )
        change = SelfApprovalChange.objects.select_related("decision").get(pk=pk)
        return Response(SelfApprovalChangeOut(change).data)


class TableFilter(django_filters.FilterSet):
    class Meta:
        form = AsciiDigitsForm  # a number or a date in ASCII digits
        model = Table
        fields = ["cardroom", "banking"]


class TableList(generics.ListAPIView, ServiceView):
    queryset = Table.objects.order_by("cardroom_id", "name")
    serializer_class = TableOut
    filterset_class = TableFilter
    write_roles = SUPERVISOR
    input_serializer = TableIn

    @extend_schema(request=TableIn, responses={201: TableDetailOut})
    @idempotent
    def post(self, request: Request) -> Response:
        table = table_create(**self.parse(request), by=actor(request))
        return Response(TableDetailOut(table).data, status=201)


class TableDetail(generics.RetrieveAPIView):
    queryset = Table.objects.all()
    serializer_class = TableDetailOut

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "viewer": selectors.viewer(self.request.user)}


def require_sees_stacks(request: Request, table_id: int) -> None:
    """A table's stacks, seatings and rotation: its staff, floor supervisors and compliance
    (hardening item 5; the rule is ``tables.selectors.Viewer``)."""
    if not selectors.viewer(request.user).sees_stacks(table_id):
        raise PermissionDenied(
            "Only the table's dealer on duty, floor supervisors and compliance see its "
            "stacks, seatings and rotation."
        )


class TableSettingsList(generics.ListAPIView):
    serializer_class = SettingsOut

    def get_queryset(self) -> QuerySet[TableSettings]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return TableSettings.objects.none()
        return TableSettings.objects.filter(table_id=self.kwargs["pk"]).order_by("-version")


class TableOpen(ServiceView):
    write_roles = SUPERVISOR
    input_serializer = DealerIn

    @extend_schema(request=DealerIn, responses={201: SessionOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        dealer = _user(self.parse(request)["dealer"])
        session = table_open(table=table, dealer=dealer, by=actor(request))
        return Response(SessionOut(session).data, status=201)


class TableClose(ServiceView):
    write_roles = SUPERVISOR

    @extend_schema(request=None, responses=SessionOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        session = table_close(table=get_object_or_404(Table, pk=pk), by=actor(request))
        return Response(SessionOut(session).data)


class TableDealer(ServiceView):
    write_roles = SUPERVISOR
    input_serializer = DealerIn

    @extend_schema(request=DealerIn, responses=SessionOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        dealer = _user(self.parse(request)["dealer"])
        session = table_dealer_change(table=table, dealer=dealer, by=actor(request))
        return Response(SessionOut(session).data)


class SettingChangeList(generics.ListAPIView, ServiceView):
    serializer_class = SettingChangeOut
    write_roles = SUPERVISOR
    input_serializer = SettingChangeIn

    def get_queryset(self) -> QuerySet[SettingChange]:
        if getattr(self, "swagger_fake_view", False):
            return SettingChange.objects.none()
        return selectors.setting_change_history(get_object_or_404(Table, pk=self.kwargs["pk"]))

    @extend_schema(request=SettingChangeIn, responses={201: SettingChangeOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        change = setting_change_propose(
            table=get_object_or_404(Table, pk=pk), **data, by=actor(request)
        )
        return Response(SettingChangeOut(change).data, status=201)


class SettingChangeDecision(ServiceView):
    """approve / reject / withdraw, by the URL's ``decision``."""

    write_roles = SUPERVISOR
    input_serializer = ChangeDecisionIn
    decision = ""

    @extend_schema(request=ChangeDecisionIn, responses=SettingChangeOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = get_object_or_404(SettingChange, pk=pk)
        data = self.parse(request)
        reason = data["reason"]
        if self.decision == "approve":
            setting_change_approve(
                change=change,
                signature=signature_input(request, data.get("signature")),
                by=actor(request),
            )
        elif self.decision == "reject":
            setting_change_reject(change=change, by=actor(request), reason=reason)
        else:
            setting_change_withdraw(change=change, by=actor(request))
        change.refresh_from_db()
        return Response(SettingChangeOut(change).data)


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        form = AsciiDigitsForm  # a number or a date in ASCII digits
        model = Player
        fields = ["cardroom", "name"]


class PlayerList(generics.ListAPIView, ServiceView):
    queryset = Player.objects.order_by("name", "id")
    serializer_class = PlayerOut
    filterset_class = PlayerFilter
    read_roles = PLAY_READERS
    write_roles = TABLE_STAFF
    input_serializer = PlayerIn

    @extend_schema(request=PlayerIn, responses={201: PlayerOut})
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.parse(request)
        shown = data.pop("identity")
        identity = IdentityInput(**shown) if shown else None
        player = player_create(**data, identity=identity, by=actor(request))
        return Response(PlayerOut(player).data, status=201)


class SeatingList(generics.ListAPIView, ServiceView):
    """The players seated at the table now; POST seats one and takes the buy-in."""

    moves_money = True
    serializer_class = SeatingOut
    write_roles = TABLE_STAFF
    input_serializer = SeatIn

    def get_queryset(self) -> QuerySet[Seating]:
        if getattr(self, "swagger_fake_view", False):
            return Seating.objects.none()
        table = get_object_or_404(Table, pk=self.kwargs["pk"])
        require_sees_stacks(self.request, table.pk)
        return selectors.seated(table).order_by("seat")

    @extend_schema(request=SeatIn, responses={201: SeatingOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        seating = seat_player(
            table=get_object_or_404(Table, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(SeatingOut(seating).data, status=201)


class SeatingDetail(generics.RetrieveAPIView):
    queryset = Seating.objects.select_related("player")
    serializer_class = SeatingOut

    def get_object(self) -> Seating:
        seating: Seating = super().get_object()
        require_sees_stacks(self.request, seating.table_id)
        return seating


class StackHistory(generics.ListAPIView):
    """Every movement of a seating's stack, oldest first: the stack is their sum."""

    serializer_class = StackEntryOut

    def get_queryset(self) -> QuerySet[StackEntry]:
        if getattr(self, "swagger_fake_view", False):
            return StackEntry.objects.none()
        seating = get_object_or_404(Seating, pk=self.kwargs["pk"])
        require_sees_stacks(self.request, seating.table_id)
        return selectors.stack_history(seating)


class SeatingStep(StepView[Seating]):
    """One change to a seating; answers with the seating."""

    model = Seating

    def answer(self, seating: Seating) -> Any:
        seating.refresh_from_db()
        return SeatingOut(seating).data


@extend_schema(request=AmountIn, responses=SeatingOut)
class SeatingAddChips(SeatingStep):
    moves_money = True
    input_serializer = AmountIn

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        stack_add(seating=seating, amount=data["amount"], tender=data["tender"], by=by)


@extend_schema(request=CashOutIn, responses=SeatingOut)
class SeatingCashOut(SeatingStep):
    """Colour up: chips off the stack, all of them without an amount."""

    moves_money = True
    input_serializer = CashOutIn

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        stack_cash_out(seating=seating, amount=data["amount"], by=by)


@extend_schema(request=None, responses=SeatingOut)
class SeatingSitOut(SeatingStep):
    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_sit_out(seating=seating, by=by)


@extend_schema(request=None, responses=SeatingOut)
class SeatingComeBack(SeatingStep):
    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_come_back(seating=seating, by=by)


@extend_schema(request=None, responses=SeatingOut)
class SeatingLeave(SeatingStep):
    moves_money = True

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_leave(seating=seating, by=by)


@extend_schema(request=FlagIn, responses=SeatingOut)
class SeatingDpWaiver(SeatingStep):
    """R16: a standing waiver of the designated-player position (value true), or its end."""

    input_serializer = FlagIn

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_waive_dp(seating=seating, waived=data["value"], by=by)


@extend_schema(request=FlagIn, responses=SeatingOut)
class SeatingProposition(SeatingStep):
    """Flag (or unflag) the table's third-party proposition player."""

    write_roles = SUPERVISOR
    input_serializer = FlagIn

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_flag_proposition(seating=seating, flagged=data["value"], by=by)


PERIOD = [
    OpenApiParameter("from", datetime, description="start of the period (ISO 8601)"),
    OpenApiParameter("to", datetime, description="end of the period (ISO 8601)"),
]


class RotationLog(generics.ListAPIView, ServiceView):
    """R16: every offer of the designated-player position at the table in a period. POST
    offers it now (without starting a hand) — e.g. to run the first hand's draw."""

    serializer_class = RotationOut
    write_roles = TABLE_STAFF
    input_serializer = RotationIn

    def get_queryset(self) -> QuerySet[RotationRecord]:
        if getattr(self, "swagger_fake_view", False):
            return RotationRecord.objects.none()
        table = get_object_or_404(Table, pk=self.kwargs["pk"])
        require_sees_stacks(self.request, table.pk)
        start, end = period(self.request)
        return selectors.rotation_log(table, start, end)

    @extend_schema(parameters=PERIOD)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(request=RotationIn, responses={201: RotationOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        record = designated_player_rotate(
            table=get_object_or_404(Table, pk=pk),
            by=actor(request),
            refusals=data["refusals"],
            draw_cards=seat_keys(data["draw_cards"], field="draw_cards") or None,
        )
        return Response(RotationOut(record).data, status=201)


class RotationFlagOut(serializers.Serializer):
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    holders = serializers.ListField(child=serializers.CharField())
    hands = serializers.IntegerField()


class RotationCompliance(ServiceView):
    """R16's check: windows of play in which fewer than two players held the position."""

    @extend_schema(parameters=PERIOD, responses=RotationFlagOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        require_sees_stacks(request, table.pk)
        start, end = period(request)
        flags = selectors.rotation_compliance_flags(table, start, end)
        return Response(RotationFlagOut(flags, many=True).data)


def period(request: Request) -> tuple[datetime, datetime]:
    """``from``/``to`` query parameters (ISO 8601); the last 24 hours by default."""
    end = _moment(request, "to") or timezone.now()
    try:
        start = _moment(request, "from") or end - timedelta(days=1)
    except OverflowError:
        raise DomainError("The period starts before the year 1.", field="to") from None
    if start >= end:
        raise DomainError("The period must end after it starts.", field="to")
    return start, end


def _moment(request: Request, name: str) -> datetime | None:
    text = request.query_params.get(name)
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
        moment = moment if timezone.is_aware(moment) else timezone.make_aware(moment)
        # The database is asked in UTC (PostgreSQL takes no offset beyond ±15:59), and
        # 0001-01-01T00:00+14:00 has no UTC equivalent.
        return moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise DomainError(f"'{text}' is not an ISO 8601 date and time.", field=name) from None


def _user(pk: int) -> User:
    user = User.objects.filter(pk=pk).first()
    if user is None:
        raise DomainError(f"There is no user {pk}.", field="dealer")
    return user
