"""Builders for the engine's rule tests: rounds in the settle-json format, settled through the
public contract (``settle_json``), and a few helpers to read the answer.

Nothing here computes an expected value: tests work their numbers out by hand from the rules.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from engine.contract import settle_json

# A deck's worth of hands that never share a card, so any of them can sit at one table
# (6 spots + the dealer = 49 cards; R1). Each one's flush (R2) is named.
DEALER_K94 = "Ks 9s 4s 2c 7h 8c 3c"  # spades K-9-4: 3 cards, qualifies (R4); run 2c-3c (2)
FOUR_HEARTS_AT62 = "Ah Th 6h 2h Jd 5c 9c"  # hearts A-T-6-2: 4 cards, beats DEALER_K94
THREE_DIAMONDS_Q85 = "Qd 8d 5d As 6c 4h 3s"  # diamonds Q-8-5: 3 cards, loses to DEALER_K94
FOUR_CLUBS_KQJ4 = "Kc Qc Jc 4c 5h 8h Ts"  # clubs K-Q-J-4: 4 cards, beats DEALER_K94
FOUR_DIAMONDS_AK92 = "Ad Kd 9d 2d 9h Js 6s"  # diamonds A-K-9-2: 4 cards, beats DEALER_K94
FOUR_DIAMONDS_T764 = "Td 7d 6d 4d Ac Kh Qs"  # diamonds T-7-6-4: 4 cards, beats DEALER_K94
THREE_HEARTS_QJ3 = "Qh Jh 3h 8s 7s 5s Tc"  # hearts Q-J-3: 3 cards, loses to DEALER_K94

# A dealer that does not qualify (R4: spades 8-7-6 is below 9-3-2) yet holds a 3-card run
# 6-7-8 of spades (R3), for the straight-flush comparisons of R10.
DEALER_876_RUN = "8s 7s 6s 2c 9c 4d Jd"


def spot(
    seat: int,
    cards: str | None = None,
    decision: str | None = None,
    *,
    ante: str = "10",
    raise_: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One spot; ``extra`` holds any other settle-json key (``flush_bonus``, ``player``…)."""
    data: dict[str, Any] = {"seat": seat, "ante": ante}
    if cards is not None:
        data["cards"] = cards
    if decision is not None:
        data["decision"] = decision
    if raise_ is not None:
        data["raise"] = raise_
    data.update(extra)
    return data


def raised(seat: int, cards: str, *, ante: str = "10", raise_: str | None = None, **extra: Any):
    """A spot that raised; the raise is 1× the ante unless given."""
    return spot(seat, cards, "raise", ante=ante, raise_=raise_ or ante, **extra)


def folded(seat: int, cards: str, *, ante: str = "10", **extra: Any) -> dict[str, Any]:
    return spot(seat, cards, "fold", ante=ante, **extra)


def dead_spot(seat: int, *, ante: str = "10", **extra: Any) -> dict[str, Any]:
    """A spot the dealer declared dead for a wrong card count (R14): no cards, no decision."""
    return spot(seat, ante=ante, dead="wrong_card_count", **extra)


def dp_round(
    dealer_cards: str | None,
    spots: list[dict[str, Any]],
    *,
    seat: int = 4,
    bank: str = "1000",
    misdeal: str | None = None,
    **table: Any,
) -> dict[str, Any]:
    """A designated-player round; ``table`` holds the table keys given (the rest default)."""
    dealer: dict[str, Any] = {"seat": seat, "bank": bank}
    if dealer_cards is not None:
        dealer["cards"] = dealer_cards
    return {"table": dict(table), "dealer": dealer, "spots": spots, "misdeal": misdeal}


def house_round(
    dealer_cards: str | None,
    spots: list[dict[str, Any]],
    *,
    misdeal: str | None = None,
    **table: Any,
) -> dict[str, Any]:
    """A house-banked round: its dealer has no seat and no bank."""
    dealer: dict[str, Any] = {}
    if dealer_cards is not None:
        dealer["cards"] = dealer_cards
    return {
        "table": {"banking": "house", **table},
        "dealer": dealer,
        "spots": spots,
        "misdeal": misdeal,
    }


def settled(round_json: dict[str, Any]) -> dict[str, Any]:
    """Settle a round that must be accepted; fail with the engine's refusal otherwise."""
    result = settle_json(round_json)
    assert "error" not in result, f"the round was refused: {result['error']}"
    return result


def refused(round_json: dict[str, Any]) -> dict[str, str]:
    """Settle a round that must be refused; return its ``{"message", "field"}``."""
    result = settle_json(round_json)
    assert "error" in result, "the round was settled, but it should have been refused"
    assert set(result) == {"error"}
    assert result["error"]["message"]
    return result["error"]


def refused_at(round_json: dict[str, Any]) -> str:
    """The ``field`` a refused round names."""
    return refused(round_json)["field"]


def by_seat(result: dict[str, Any], seat: int) -> dict[str, Any]:
    (found,) = [s for s in result["spots"] if s["seat"] == seat]
    return found


def line(outcome: str, net: str) -> dict[str, str]:
    """A wager line as settle-json writes it."""
    return {"outcome": outcome, "net": net}


RETURNED = line("returned", "0.00")
PUSH = line("push", "0.00")


def r15_sum(result: dict[str, Any]) -> Decimal:
    """R15: spot nets + dealer net + house rake; zero when money is conserved."""
    return (
        sum((Decimal(s["net"]) for s in result["spots"]), Decimal(0))
        + Decimal(result["dealer"]["net"])
        + Decimal(result["house_rake"])
    )
