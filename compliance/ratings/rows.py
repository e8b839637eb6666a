"""A rating laid out as the CSV and the API give it: money as exact decimal strings (to the
cent), counts as integers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .figures import Rating
from .sessions import PlayerRatings

RATING_COLUMNS = [
    "player",
    "player_name",
    "period",  # day or month
    "label",  # 2024-03-01, or 2024-03
    "sessions",
    "minutes",
    "hands",
    "spots",
    "wagered_ante",
    "wagered_raise",
    "wagered_flush_bonus",
    "wagered_straight_flush_bonus",
    "wagered_total",
    "average_wager",
    "buy_in_cash",
    "buy_in_chips",
    "cash_out_cash",
    "cash_out_chips",
    "result",
    "theoretical_win",
    "decisions",
    "decisions_valued",
    "decisions_pending",
    "best_decisions",
    "decision_cost",
]


def rating_json(rating: Rating) -> dict[str, Any]:
    """Every figure of a rating; money rounded to the cent once, here (``figures``)."""
    return {
        "sessions": rating.sessions,
        "minutes": rating.minutes,
        "hands": rating.hands,
        "spots": rating.spots,
        "wagered": dict(rating.wagered),
        "wagered_total": rating.total_wagered,
        "average_wager": rating.average_wager,
        "buy_ins": dict(rating.buy_ins),
        "cash_outs": dict(rating.cash_outs),
        "result": rating.result,
        "theoretical_win": rating.theoretical_win,
        "decisions": rating.decisions,
        "decisions_valued": rating.decisions_valued,
        "decisions_pending": rating.decisions_pending,
        "best_decisions": rating.best_decisions,
        "decision_cost": rating.decision_cost_total,
    }


def rating_rows(ratings: PlayerRatings) -> Iterator[list[Any]]:
    """One row per gaming day, then one per month, of one player."""
    player = ratings.player
    for period in (*ratings.days, *ratings.months):
        figures = rating_json(period)
        yield [
            player.pk,
            player.name,
            period.kind,
            period.label,
            figures["sessions"],
            figures["minutes"],
            figures["hands"],
            figures["spots"],
            *(period.wagered[name] for name in ("ante", "raise", "flush_bonus")),
            period.wagered["straight_flush_bonus"],
            figures["wagered_total"],
            figures["average_wager"],
            period.buy_ins["cash"],
            period.buy_ins["chips"],
            period.cash_outs["cash"],
            period.cash_outs["chips"],
            figures["result"],
            figures["theoretical_win"],
            figures["decisions"],
            figures["decisions_valued"],
            figures["decisions_pending"],
            figures["best_decisions"],
            figures["decision_cost"],
        ]
