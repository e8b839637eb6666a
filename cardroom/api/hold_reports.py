"""REST API for hold against theoretical (game-math.md): a table's hold over a period."""

from __future__ import annotations

from datetime import UTC, date
from fractions import Fraction
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView
from cardroom.api.fields import MoneyField, SignedMoneyField
from cardroom.api.read_source import ReadSourceOut
from cardroom.api.tables.rotation import period
from compliance import hold, hold_lines
from core.errors import DomainError
from core.roles import AUDITORS
from tables.models import Table
from tables.selectors import gaming_day


@extend_schema_field(
    {"type": "string", "nullable": True, "pattern": r"^-?\d+\.\d{6}$", "example": "0.078072"}
)
class FigureField(serializers.Field):
    """A ratio as a fraction of 1 with 6 places ("0.078072" = 7.8072%); null without handle."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Fraction | None) -> str | None:
        return hold_lines.figure(value)


class HoldPeriodOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["day", "month", "range"])
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()


class HoldLineOut(serializers.Serializer):
    """One wager type: the ante and raise together (their edge is per ante), or a bonus."""

    wager = serializers.ChoiceField(choices=list(hold_lines.LINES))
    wagers = serializers.IntegerField(help_text="n: wagers in action (antes for ante_raise)")
    handle = MoneyField(help_text="amounts wagered in action, pushes included")
    handle_by_wager = serializers.DictField(
        child=MoneyField(), help_text="ante and raise apart; one entry for a bonus"
    )
    win = SignedMoneyField(help_text="what the bank won on these wagers, fees apart")
    hold = FigureField(help_text="win ÷ handle")
    theoretical_win = SignedMoneyField(help_text="Σ handle × house edge, per settings version")
    theoretical_hold = FigureField()
    band_low = SignedMoneyField(help_text="theoretical − z·σ·√n·(average wager)")
    band_high = SignedMoneyField(help_text="theoretical + z·σ·√n·(average wager)")
    flagged = serializers.BooleanField(help_text="the win is outside its band")
    flag = serializers.CharField(help_text="the figures that raised the flag; empty if none")


class HoldBankOut(serializers.Serializer):
    bank = serializers.ChoiceField(
        choices=[
            hold_lines.HOUSE,
            hold_lines.DESIGNATED_PLAYERS,
            hold_lines.DESIGNATED_PLAYER,
            hold_lines.PROPOSITION_PLAYER,
        ]
    )
    player = serializers.IntegerField(source="player.pk", default=None, allow_null=True)
    name = serializers.CharField()
    hands = serializers.IntegerField()
    handle = MoneyField()
    win = SignedMoneyField()
    theoretical_win = SignedMoneyField()
    hold = FigureField()
    lines = HoldLineOut(many=True)


class HoldReportOut(serializers.Serializer):
    table = serializers.IntegerField(source="table.pk")
    banking = serializers.CharField(source="table.banking")
    period = HoldPeriodOut()
    z = serializers.DecimalField(max_digits=6, decimal_places=2, coerce_to_string=True)
    total = HoldBankOut(help_text="the table's bank: the house, or every DP together")
    players = HoldBankOut(many=True, help_text="each designated player, on a DP table")
    flags = serializers.ListField(child=serializers.CharField())
    read_from = ReadSourceOut(
        source="source", help_text="where the report was read from (the replica's lag)"
    )


HOLD_PARAMETERS = [
    OpenApiParameter(
        "period",
        str,
        enum=["day", "shift", "month", "range"],
        description="day: a gaming day; shift: one `shift` of the gaming `day`; month: month "
        "to date, up to the end of `day`; range: `from`–`to`. Default: day.",
    ),
    OpenApiParameter("day", date, description="the gaming day (default: today's)"),
    OpenApiParameter("shift", str, description="shift: the shift's name (e.g. swing)"),
    OpenApiParameter("from", str, description="range: start (ISO 8601)"),
    OpenApiParameter("to", str, description="range: end (ISO 8601)"),
]


class HoldReport(ServiceView):
    """Hold against theoretical at a table (game-math.md): per wager type, handle, win, hold
    %, theoretical win and the band; per designated player on a DP table; flags with the
    figures that raised them. A flag changes nothing."""

    read_roles = AUDITORS

    @extend_schema(parameters=HOLD_PARAMETERS, responses=HoldReportOut)
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
        report = hold.hold_report(table, hold_period(request, table))
        return Response(HoldReportOut(report).data)


def hold_period(request: Request, table: Table) -> hold.Period:
    """The report's period from the query: a gaming day, a month to date, or a range."""
    kind = request.query_params.get("period") or "day"
    if kind == "range":
        start, end = period(request)
        return hold.range_period(start, end)
    if kind not in ("day", "shift", "month"):
        raise DomainError("The period is day, shift, month or range.", field="period")
    text = request.query_params.get("day")
    cardroom = table.cardroom
    try:
        day = date.fromisoformat(text) if text else gaming_day(cardroom, timezone.now())
    except ValueError:
        raise DomainError(f"'{text}' is not a date (YYYY-MM-DD).", field="day") from None
    try:  # the period's bounds, in UTC as the database keeps them, must exist
        if kind == "shift":
            found = hold.shift_period(cardroom, day, request.query_params.get("shift") or "")
        elif kind == "day":
            found = hold.day_period(cardroom, day)
        else:
            found = hold.month_to_date_period(cardroom, day)
        found.start.astimezone(UTC), found.end.astimezone(UTC)
    except OverflowError:
        raise DomainError(f"{day} is outside the calendar kept.", field="day") from None
    return found
