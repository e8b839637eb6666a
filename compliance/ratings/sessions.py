"""Reading the ratings from the books: a few queries for all of a player's sessions in a period,
whatever their number of hands; the sums are the database's.

- **hands, spots, wagered**: the wagers in action of the settlement in force of each hand (an
  original, or a correction no later entry reversed), pushes included; wagers a dead hand
  returned (R14) are not wagered.
- **theoretical win**: each wager times the house edge of its kind under the settings version
  its hand was played under (``Hand.settings``; ``engine.game_math`` via
  ``tables.figures.settings_figures``): a bonus's edge per unit staked (R10, its mode and
  paytable); the ante and raise's edge under the optimal strategy, which is quoted per unit of
  ante (R8, R9), on the ante; the raise adds no term of its own.
- **buy-ins and cash-outs** by tender (cash at the table, or chips): the stack movements of the
  seating; **result**: every other movement of its stack (wagers, payouts, a designated
  player's bank and corrections), what the play won or lost the player, fees included.
- **decisions**: each raise-or-fold decision (R8) of a settled hand, valued after settlement
  (``wagers.decision_costs``); those not valued yet are counted as pending.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, QuerySet, Sum
from django.utils import timezone

from core.money import ZERO
from engine.game_math import TableFigures
from engine.results import Outcome
from patrons.models import Player
from tables.figures import settings_figures
from tables.models import Seating, StackEntry, TableSettings
from tables.selectors import gaming_day, gaming_day_bounds
from wagers.models import DecisionCost, Hand, Settlement, Spot, WagerSettlement

from .figures import CENT, PeriodRating, Rating, SessionRating

_SPOT = "spot_settlement__spot"
_ENTRY = "spot_settlement__settlement"
#: Stack movements that are money in or out, not play.
_BUY_INS = (StackEntry.Reason.BUY_IN, StackEntry.Reason.ADD_ON)
_CASH_OUT = StackEntry.Reason.CASH_OUT


def _exact(total: Decimal | None) -> Decimal:
    """A database sum as exact cents (SQLite adds decimals as floating point)."""
    return (total or ZERO).quantize(CENT)


def _edge(figures: TableFigures, wager: str) -> Fraction:
    if wager == "ante":
        return figures.ante_raise.house_edge  # per unit of ante, the raise's part included
    if wager == "raise":
        return Fraction(0)
    edge: Fraction = getattr(figures, wager).house_edge
    return edge


def _wagers_in_force(ids: list[int]) -> QuerySet[WagerSettlement]:
    return (
        WagerSettlement.objects.filter(
            **{f"{_SPOT}__seating_id__in": ids, f"{_ENTRY}__reversed_by__isnull": True}
        )
        .exclude(**{f"{_ENTRY}__kind": Settlement.Kind.REVERSAL})
        .exclude(outcome=Outcome.RETURNED)
        .order_by()
    )


def _add_wagers(ratings: dict[int, SessionRating]) -> None:
    wagers = _wagers_in_force(list(ratings))
    sums = list(
        wagers.values(f"{_SPOT}__seating_id", "wager", f"{_ENTRY}__hand__settings_id").annotate(
            stake=Sum("stake")
        )
    )
    versions = {row[f"{_ENTRY}__hand__settings_id"] for row in sums}
    figures = {s.pk: settings_figures(s) for s in TableSettings.objects.filter(pk__in=versions)}
    for row in sums:
        rating, stake = ratings[row[f"{_SPOT}__seating_id"]], _exact(row["stake"])
        rating.wagered[row["wager"]] += stake
        edge = _edge(figures[row[f"{_ENTRY}__hand__settings_id"]], row["wager"])
        rating.theoretical += Fraction(stake) * edge
    counts = wagers.values(f"{_SPOT}__seating_id").annotate(
        hands=Count(f"{_SPOT}__hand_id", distinct=True), spots=Count(_SPOT, distinct=True)
    )
    for row in counts:
        rating = ratings[row[f"{_SPOT}__seating_id"]]
        rating.hands, rating.spots = row["hands"], row["spots"]


def _add_stack_movements(ratings: dict[int, SessionRating]) -> None:
    rows = (
        StackEntry.objects.filter(seating_id__in=list(ratings))
        .values("seating_id", "reason", "tender")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    for row in rows:
        rating, amount = ratings[row["seating_id"]], _exact(row["total"])
        tender = row["tender"] or "chips"
        if row["reason"] in _BUY_INS:
            rating.buy_ins[tender] += amount
        elif row["reason"] == _CASH_OUT:
            rating.cash_outs[tender] -= amount  # off the stack: shown as a positive amount
        else:
            rating.result += amount


def _add_decisions(ratings: dict[int, SessionRating]) -> None:
    ids = list(ratings)
    decided = (
        Spot.objects.filter(seating_id__in=ids, hand__status=Hand.Status.SETTLED, dead_reason="")
        .exclude(decision="")
        .values("seating_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    for row in decided:
        ratings[row["seating_id"]].decisions = row["n"]
    valued = (
        DecisionCost.objects.filter(spot__seating_id__in=ids, settlement__reversed_by__isnull=True)
        .values_list("spot__seating_id", "cost", "dealer_hands")
        .order_by()
    )
    for seating, cost, dealer_hands in valued:
        rating = ratings[seating]
        rating.decisions_valued += 1
        rating.best_decisions += cost == 0
        rating.decision_cost += Fraction(cost, dealer_hands * 100)  # cents → dollars


def _session_ratings(seatings: Iterable[Seating], now: datetime) -> list[SessionRating]:
    ratings: dict[int, SessionRating] = {}
    for seating in seatings:
        ended = seating.left_at or now
        ratings[seating.pk] = SessionRating(
            sessions=1,
            minutes=max(0, int((ended - seating.sat_at).total_seconds()) // 60),
            seating=seating,
            day=gaming_day(seating.table.cardroom, seating.sat_at),
        )
    if ratings:
        _add_wagers(ratings)
        _add_stack_movements(ratings)
        _add_decisions(ratings)
    return list(ratings.values())


def session_rating(seating: Seating, *, now: datetime | None = None) -> SessionRating:
    """One session's rating (an open one: so far)."""
    return _session_ratings([seating], now or timezone.now())[0]


@dataclass
class PlayerRatings:
    player: Player
    first_day: date
    last_day: date
    sessions: list[SessionRating]
    days: list[PeriodRating] = field(default_factory=list)
    months: list[PeriodRating] = field(default_factory=list)
    total: Rating = field(default_factory=Rating)


def _group(sessions: list[SessionRating], kind: str) -> list[PeriodRating]:
    periods: dict[str, PeriodRating] = {}
    for session in sessions:
        assert session.day is not None
        label = session.day.isoformat() if kind == "day" else f"{session.day:%Y-%m}"
        periods.setdefault(label, PeriodRating(kind=kind, label=label)).add(session)
    return [periods[label] for label in sorted(periods)]


def player_ratings(
    player: Player, first_day: date, last_day: date, *, now: datetime | None = None
) -> PlayerRatings:
    """A player's sessions begun in the gaming days ``first_day``..``last_day`` (a session
    counts wholly in the gaming day it began in), with their sums per day and per month."""
    cardroom = player.cardroom
    start, _ = gaming_day_bounds(cardroom, first_day)
    _, end = gaming_day_bounds(cardroom, last_day)
    seatings = (
        Seating.objects.filter(player=player, sat_at__gte=start, sat_at__lt=end)
        .select_related("table__cardroom")
        .order_by("sat_at", "id")
    )
    sessions = _session_ratings(seatings, now or timezone.now())
    total = Rating()
    for session in sessions:
        total.add(session)
    return PlayerRatings(
        player=player,
        first_day=first_day,
        last_day=last_day,
        sessions=sessions,
        days=_group(sessions, "day"),
        months=_group(sessions, "month"),
        total=total,
    )


__all__ = ["PlayerRatings", "player_ratings", "session_rating"]
