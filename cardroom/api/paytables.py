"""REST API for what a table's settings pay (game-math.md) and a cardroom's catalogue of
approved paytables (R17). Views only parse, call one service or selector, and answer."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import PersonNameField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import ChangeDecisionIn, signature_input
from core.roles import FLOOR_SUPERVISOR
from patrons.models import Cardroom
from tables import catalogue, figures, selectors
from tables.models import PaytableKind, Table
from tables.staff_models import PaytableChange, TwoPersonChange, TwoPersonDecision

SUPERVISOR = (FLOOR_SUPERVISOR,)
FIGURE = r"^-?\d+\.\d{6}$"  # a fraction of 1 with 6 places: 0.921928 = 92.1928%


def _figure(help_text: str) -> serializers.RegexField:
    return serializers.RegexField(FIGURE, help_text=help_text)


# --- the figures (as manage.py game_math prints them) ------------------------------------------


class WagerFiguresOut(serializers.Serializer):
    """One bonus wager (R10): fractions of 1 with 6 places (0.921928 = 92.1928%)."""

    mode = serializers.ChoiceField(choices=["paytable", "versus_dp"])
    house_edge = _figure("1 - return: what the bank keeps per 1 wagered")
    hit_frequency = _figure("the probability that the wager wins")
    variance = _figure("of the wager's result per 1 staked: it sizes the hold bands")
    method = serializers.CharField(help_text="exact")
    strategy = serializers.CharField(
        required=False, help_text="versus_dp only: the raise strategy the figure assumes"
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        # "return" is a Python keyword, so it is added here, under its JSON name.
        fields = super().get_fields()
        returned = _figure("what the wager pays back per 1 wagered, stake included")
        return {"mode": fields.pop("mode"), "return": returned, **fields}


class AnteRaiseFiguresOut(serializers.Serializer):
    """R8/R9: the ante and raise together, per unit of ante, under the optimal strategy."""

    house_edge = _figure("per unit of ante")
    variance = _figure("of the ante and raise's result, per unit of ante")
    strategy = serializers.CharField()
    method = serializers.CharField()


class FiguresOut(serializers.Serializer):
    flush_bonus = WagerFiguresOut()
    straight_flush_bonus = WagerFiguresOut()
    ante_raise = AnteRaiseFiguresOut()


class ChangeFiguresOut(serializers.Serializer):
    """R17: a setting change's figures: of the settings it makes, and of those it replaces
    (pending: the settings in force now)."""

    proposed = FiguresOut()
    in_force = FiguresOut()


class TableMathOut(serializers.Serializer):
    table = serializers.IntegerField()
    banking = serializers.CharField()
    version = serializers.IntegerField(help_text="the settings version in force")
    bonus_mode = serializers.CharField()
    flush_paytable = serializers.DictField(child=serializers.IntegerField())
    straight_flush_paytable = serializers.DictField(child=serializers.IntegerField())
    figures = FiguresOut()


class TableMath(ServiceView):
    """What the table's settings in force pay in the long run: each bonus's return, house
    edge, hit frequency and variance, and the ante/raise house edge (game-math.md)."""

    @extend_schema(responses=TableMathOut)
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        settings = selectors.current_settings(table)
        body = {
            "table": table.pk,
            "banking": table.banking,
            "version": settings.version,
            **figures.figure_values(settings),
            "figures": figures.figures_json(figures.settings_figures(settings)),
        }
        return Response(TableMathOut(body).data)


# --- the catalogue of approved paytables -------------------------------------------------------


class PaytableFiguresOut(serializers.Serializer):
    """A paytable's figures in each bonus mode: one catalogue serves every table."""

    paytable = WagerFiguresOut()
    versus_dp = WagerFiguresOut()


class _WithFigures(serializers.Serializer):
    figures = serializers.SerializerMethodField()

    @extend_schema_field(PaytableFiguresOut)
    def get_figures(self, row: Any) -> dict[str, Any]:
        kind = row.paytable if isinstance(row, PaytableChange) else row.kind
        return catalogue.catalogue_figures(kind, row.lines)


class CatalogueEntryOut(_WithFigures):
    kind = serializers.ChoiceField(choices=PaytableKind.choices)
    lines = serializers.DictField(child=serializers.IntegerField(), help_text="size: N to 1")
    text = serializers.CharField(help_text='e.g. "4:1, 5:10, 6:100, 7:300"')
    change = serializers.IntegerField(source="added.pk", help_text="the change that added it")
    origin = serializers.CharField(source="added.origin")


class PaytableDecisionOut(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=TwoPersonDecision.Outcome.choices)
    decided_by = serializers.IntegerField(source="decided_by_id", allow_null=True)
    decided_by_name = PersonNameField(source="decided_by", allow_null=True)
    decided_at = serializers.DateTimeField()
    self_approved = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True)


class PaytableChangeOut(_WithFigures):
    """A change to the catalogue: a kind of two-person change, read as the catalogue's."""

    id = serializers.IntegerField()
    cardroom = serializers.IntegerField(source="cardroom_id")
    kind = serializers.ChoiceField(choices=PaytableKind.choices, source="paytable")
    lines = serializers.JSONField()
    action = serializers.ChoiceField(choices=PaytableChange.Action.choices)
    origin = serializers.ChoiceField(choices=PaytableChange.Origin.choices)
    proposed_by = serializers.IntegerField(source="proposed_by_id", allow_null=True)
    proposed_by_name = PersonNameField(source="proposed_by", allow_null=True)
    proposed_at = serializers.DateTimeField()
    reason = serializers.CharField()
    status = serializers.ChoiceField(choices=TwoPersonChange.Status.choices)
    decision = serializers.SerializerMethodField()

    @extend_schema_field(PaytableDecisionOut(allow_null=True))
    def get_decision(self, change: PaytableChange) -> dict[str, Any] | None:
        decision = change.decided
        return PaytableDecisionOut(decision).data if decision is not None else None


class PaytableChangeIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=PaytableKind.choices)
    lines = serializers.JSONField(help_text='size: N to 1, e.g. {"4": 1, "5": 10}')
    action = serializers.ChoiceField(choices=PaytableChange.Action.choices, default="add")
    reason = serializers.CharField(max_length=2000)


class PaytableCatalogue(ServiceView):
    """The paytables the cardroom's tables may post now (R17), each with its figures."""

    @extend_schema(responses=CatalogueEntryOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        entries = catalogue.paytable_catalogue(get_object_or_404(Cardroom, pk=pk))
        return Response(CatalogueEntryOut(entries, many=True).data)


class PaytableChangeList(generics.ListAPIView, ServiceView):
    """Proposals to add a paytable to the catalogue or retire one, newest first; POST proposes
    one (a floor supervisor; another approves it, R17)."""

    serializer_class = PaytableChangeOut
    write_roles = SUPERVISOR
    input_serializer = PaytableChangeIn

    def get_queryset(self) -> QuerySet[PaytableChange]:
        if getattr(self, "swagger_fake_view", False):
            return PaytableChange.objects.none()
        cardroom = get_object_or_404(Cardroom, pk=self.kwargs["pk"])
        return catalogue.paytable_change_history(cardroom)

    @extend_schema(request=PaytableChangeIn, responses={201: PaytableChangeOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = catalogue.paytable_change_propose(
            cardroom=get_object_or_404(Cardroom, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(PaytableChangeOut(change).data, status=201)


class PaytableChangeDecision(ServiceView):
    """approve / reject / withdraw a catalogue change, by the URL's ``decision``."""

    write_roles = SUPERVISOR
    input_serializer = ChangeDecisionIn
    decision = ""

    @extend_schema(request=ChangeDecisionIn, responses=PaytableChangeOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = get_object_or_404(PaytableChange, pk=pk)
        data = self.parse(request)
        reason = data["reason"]
        by = actor(request)
        if self.decision == "approve":
            catalogue.paytable_change_approve(
                change=change, signature=signature_input(request, data.get("signature")), by=by
            )
        elif self.decision == "reject":
            catalogue.paytable_change_reject(change=change, by=by, reason=reason)
        else:
            catalogue.paytable_change_withdraw(change=change, by=by)
        change = PaytableChange.objects.select_related("decision__decided_by").get(pk=pk)
        return Response(PaytableChangeOut(change).data)
