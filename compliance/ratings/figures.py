"""What a rating is made of, and how each figure is reckoned from it.

Amounts wagered, bought in and cashed out are exact ``Decimal`` cents from the books. The
theoretical win and the decisions' cost are kept as exact ``Fraction``s while they are summed
(a session's wagers, a day's sessions, a month's days) and rounded to the cent once, half to
even, when a figure is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from core.money import ZERO
from tables.models import Seating

CENT = Decimal("0.01")
WAGERS = ("ante", "raise", "flush_bonus", "straight_flush_bonus")
TENDERS = ("cash", "chips")


def to_cents(value: Fraction) -> Decimal:
    """An exact amount in dollars, to the cent, half to even."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        CENT, rounding=ROUND_HALF_EVEN
    )


def _zeros(names: tuple[str, ...]) -> dict[str, Decimal]:
    return dict.fromkeys(names, ZERO)


@dataclass
class Rating:
    """A player's figures over sessions: one session, or a gaming day's, or a month's."""

    sessions: int = 0
    minutes: int = 0
    hands: int = 0  # hands in which the player had a wager in action
    spots: int = 0  # spots in action (two in a hand for a player playing two, R6)
    wagered: dict[str, Decimal] = field(default_factory=lambda: _zeros(WAGERS))
    buy_ins: dict[str, Decimal] = field(default_factory=lambda: _zeros(TENDERS))
    cash_outs: dict[str, Decimal] = field(default_factory=lambda: _zeros(TENDERS))
    result: Decimal = ZERO  # what the play won (+) or lost (−) the player, fees included
    theoretical: Fraction = Fraction(0)  # dollars, exact
    decisions: int = 0  # raise-or-fold decisions (R8) of settled hands
    decisions_valued: int = 0  # of those, valued so far (the rest wait for a worker)
    best_decisions: int = 0  # valued decisions that were the best play
    decision_cost: Fraction = Fraction(0)  # dollars, exact

    @property
    def total_wagered(self) -> Decimal:
        return sum(self.wagered.values(), ZERO)

    @property
    def average_wager(self) -> Decimal:
        """Everything wagered per spot in action, to the cent."""
        if not self.spots:
            return ZERO
        return to_cents(Fraction(self.total_wagered) / self.spots)

    @property
    def theoretical_win(self) -> Decimal:
        return to_cents(self.theoretical)

    @property
    def decision_cost_total(self) -> Decimal:
        return to_cents(self.decision_cost)

    @property
    def decisions_pending(self) -> int:
        return self.decisions - self.decisions_valued

    def add(self, other: Rating) -> None:
        """Sum another rating into this one (exact: nothing is rounded here)."""
        for name in ("sessions", "minutes", "hands", "spots", "decisions"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.decisions_valued += other.decisions_valued
        self.best_decisions += other.best_decisions
        for mine, theirs in (
            (self.wagered, other.wagered),
            (self.buy_ins, other.buy_ins),
            (self.cash_outs, other.cash_outs),
        ):
            for name, amount in theirs.items():
                mine[name] += amount
        self.result += other.result
        self.theoretical += other.theoretical
        self.decision_cost += other.decision_cost


@dataclass
class SessionRating(Rating):
    """One seating: a player at a seat of a table, from sitting down to leaving."""

    seating: Seating | None = None
    day: date | None = None  # the gaming day the session began in (it counts wholly there)

    @property
    def open(self) -> bool:
        return self.seating is not None and self.seating.left_at is None

    @property
    def sat_at(self) -> datetime | None:
        return self.seating.sat_at if self.seating else None

    @property
    def left_at(self) -> datetime | None:
        return self.seating.left_at if self.seating else None


@dataclass
class PeriodRating(Rating):
    """A gaming day's (``label`` 2024-03-01) or a month's (``label`` 2024-03) sessions."""

    kind: str = "day"
    label: str = ""
