"""REST API for player ratings (compliance.ratings): a player's sessions and their sums per
gaming day and month, one session's rating, and valuing an open session's decisions now."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, StepView
from cardroom.api.fields import MoneyField, SignedMoneyField
from compliance.ratings import player_ratings, session_rating
from compliance.ratings.rows import rating_json
from core.errors import DomainError
from core.roles import AUDITORS
from patrons.models import Player
from tables.models import Seating
from tables.selectors import gaming_day
from wagers.decision_costs import seating_decisions_value

#: The longest period one read covers.
MAX_DAYS = 366


class TenderOut(serializers.Serializer):
    cash = MoneyField()
    chips = MoneyField()


class RatingOut(serializers.Serializer):
    sessions = serializers.IntegerField()
    minutes = serializers.IntegerField(help_text="seated, from sitting down to leaving (or now)")
    hands = serializers.IntegerField(help_text="hands with a wager of the player in action")
    spots = serializers.IntegerField(help_text="spots in action (two in a hand with two, R6)")
    wagered = serializers.DictField(
        child=MoneyField(),
        help_text="by wager: ante, raise, flush_bonus, straight_flush_bonus; in action, pushes "
        "included (a dead hand's returned wagers are not)",
    )
    wagered_total = MoneyField()
    average_wager = MoneyField(help_text="wagered_total ÷ spots, to the cent")
    buy_ins = TenderOut(help_text="buy-ins and add-ons by tender")
    cash_outs = TenderOut()
    result = SignedMoneyField(help_text="what the play won (+) or lost (−) the player, fees in")
    theoretical_win = SignedMoneyField(
        help_text="Σ wager × house edge of its kind under its hand's settings version, exact, "
        "rounded to the cent once"
    )
    decisions = serializers.IntegerField(help_text="raise-or-fold decisions of settled hands")
    decisions_valued = serializers.IntegerField()
    decisions_pending = serializers.IntegerField(help_text="waiting for the worker")
    best_decisions = serializers.IntegerField(help_text="valued decisions that were the best")
    decision_cost = MoneyField(help_text="expected value given up against the best plays (R8)")


class SessionRatingOut(RatingOut):
    seating = serializers.IntegerField(source="seating.pk")
    table = serializers.CharField(source="seating.table.name")
    seat = serializers.IntegerField(source="seating.seat")
    day = serializers.DateField(help_text="the gaming day the session began (it counts there)")
    sat_at = serializers.DateTimeField()
    left_at = serializers.DateTimeField(allow_null=True)
    open = serializers.BooleanField()


class PeriodRatingOut(RatingOut):
    kind = serializers.ChoiceField(choices=["day", "month"])
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label


class PlayerRatingsOut(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    first_day = serializers.DateField()
    last_day = serializers.DateField()
    sessions = SessionRatingOut(many=True)
    days = PeriodRatingOut(many=True)
    months = PeriodRatingOut(many=True)
    total = RatingOut()


def _with_figures(rating: Any, **extra: Any) -> dict[str, Any]:
    return rating_json(rating) | extra


def session_data(rating: Any) -> dict[str, Any]:
    seating = rating.seating
    return _with_figures(
        rating,
        seating=seating,
        day=rating.day,
        sat_at=seating.sat_at,
        left_at=seating.left_at,
        open=rating.open,
    )


def _day(request: Request, name: str) -> date | None:
    text = request.query_params.get(name)
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise DomainError("A gaming day is YYYY-MM-DD.", field=name) from None


def rating_days(request: Request, player: Player) -> tuple[date, date]:
    """``from``/``to`` gaming days; by default the month to date (the player's cardroom)."""
    today = gaming_day(player.cardroom, timezone.now())
    last = _day(request, "to") or today
    first = _day(request, "from") or last.replace(day=1)
    if first > last:
        raise DomainError("The period must end on or after the day it starts.", field="to")
    if last - first >= timedelta(days=MAX_DAYS):
        raise DomainError(f"A rating covers at most {MAX_DAYS} gaming days.", field="from")
    return first, last


RATING_PARAMETERS = [
    OpenApiParameter(
        "from", date, description="first gaming day (default: the 1st of `to`'s month)"
    ),
    OpenApiParameter("to", date, description="last gaming day (default: today's)"),
]


class PlayerRatings(ServiceView):
    """A player's rating: every session begun in the gaming days `from`–`to`, and their sums
    per gaming day and per month (docs/compliance.md, "Player ratings")."""

    read_roles = AUDITORS

    @extend_schema(parameters=RATING_PARAMETERS, responses=PlayerRatingsOut)
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player.objects.select_related("cardroom"), pk=pk)
        first, last = rating_days(request, player)
        ratings = player_ratings(player, first, last)
        data = {
            "player": player,
            "first_day": first,
            "last_day": last,
            "sessions": [session_data(s) for s in ratings.sessions],
            "days": [_with_figures(d, kind=d.kind, label=d.label) for d in ratings.days],
            "months": [_with_figures(m, kind=m.kind, label=m.label) for m in ratings.months],
            "total": rating_json(ratings.total),
        }
        return Response(PlayerRatingsOut(data).data)


class SessionRating(ServiceView):
    """One session's rating (an open one: so far)."""

    read_roles = AUDITORS

    @extend_schema(responses=SessionRatingOut)
    def get(self, request: Request, pk: int) -> Response:
        seating = get_object_or_404(Seating.objects.select_related("table__cardroom"), pk=pk)
        return Response(SessionRatingOut(session_data(session_rating(seating))).data)


@extend_schema(request=None, responses=SessionRatingOut)
class SessionRatingValue(StepView[Seating]):
    """Value an open session's decisions now, without waiting for the worker. A session that
    has ended is refused (`session_closed`): its rating is final."""

    model = Seating
    read_roles = AUDITORS
    write_roles = AUDITORS

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_decisions_value(seating=seating, by=by)

    def answer(self, seating: Seating) -> Any:
        return SessionRatingOut(session_data(session_rating(seating))).data


__all__ = ["PlayerRatings", "SessionRating", "SessionRatingValue"]
