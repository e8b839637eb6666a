"""Hypothesis strategies for legal rounds in the settle-json format."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.cards import CARD_NAMES
from engine.cards import parse_hand as _parse_hand
from engine.checks import raise_cap_multiple
from engine.hands import flush_key, flush_size


def dollars(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


@st.composite
def tables(draw, banking=None):
    banking = banking or draw(st.sampled_from(["designated_player", "house"]))
    unit = draw(st.sampled_from([100, 100, 50, 25]))
    ante_min = draw(st.integers(300 // unit + (300 % unit > 0), 2500 // unit)) * unit
    ante_max = draw(st.integers(ante_min // unit, 10_000 // unit)) * unit
    bonus_min = draw(st.integers(100 // unit, 1000 // unit)) * unit
    bonus_max = draw(st.integers(bonus_min // unit, 2500 // unit)) * unit
    if banking == "house":
        rake_mode = "none"
    else:
        rake_mode = draw(st.sampled_from(["all_players", "players_not_dp", "dp_only", "none"]))
    table = {
        "banking": banking,
        "bonus_mode": draw(st.sampled_from(["versus_dp", "paytable"])),
        "rake_mode": rake_mode,
        "rake_amount": dollars(draw(st.integers(0, 5)) * unit),
        "ante_min": dollars(ante_min),
        "ante_max": dollars(ante_max),
        "bonus_min": dollars(bonus_min),
        "bonus_max": dollars(bonus_max),
        "chip_unit": dollars(unit),
        # Small caps make R11's scaling and its uneven cents common.
        "max_aggregate_payout": draw(
            st.one_of(st.none(), st.integers(1, 50_000).map(dollars), st.just("20000.00"))
        ),
    }
    if draw(st.booleans()):
        table["flush_paytable"] = {"3": 1, "4": 3, "5": 9, "6": 75, "7": 300}
        table["straight_flush_paytable"] = {"3": 7, "4": 50, "5": 250, "6": 1000}
    return table


@st.composite
def rounds(draw, banking=None, allow_dead=True):
    """A round the rules allow: 1–6 spots, distinct cards, amounts within every limit."""
    table = draw(tables(banking))
    deck = draw(st.permutations(CARD_NAMES))
    seats = draw(st.lists(st.integers(1, 7), min_size=2, max_size=7, unique=True))
    if table["banking"] == "house":
        dealer_seat, spot_seats = None, seats[:6]
    else:
        dealer_seat, spot_seats = seats[0], seats[1:]
    misdeal = draw(st.sampled_from([None] * 12 + ["dealer_card_count", "shuffler_fault"]))
    dealer = draw(_dealer(table, deck[:7], dealer_seat, misdeal))
    players = draw(
        st.lists(
            st.sampled_from(["ann", "bo", "cy", None]),
            min_size=len(spot_seats),
            max_size=len(spot_seats),
        )
    )
    spots = []
    for index, seat in enumerate(spot_seats):
        player, lowest_ante = _player_and_lowest_ante(table, players, index)
        cards = deck[7 * (index + 1) : 7 * (index + 2)]
        spot = {"seat": seat, **draw(_wagers(table, player, lowest_ante))}
        if allow_dead and not misdeal and draw(st.sampled_from([False] * 9 + [True])):
            spot["dead"] = "wrong_card_count"
        elif not misdeal:
            spot |= draw(_cards_and_decision(table, cards, _cents(spot["ante"])))
        spots.append(spot)
    return {"table": table, "dealer": dealer, "spots": spots, "misdeal": misdeal}


@st.composite
def _dealer(draw, table, cards, seat, misdeal):
    """The dealer's cards (none in a misdeal); a DP's seat and a bank that covers its fee."""
    dealer = {} if misdeal else {"cards": " ".join(cards)}
    if table["banking"] != "house":
        dp_pays = table["rake_mode"] in ("all_players", "dp_only")
        fee = _cents(table["rake_amount"]) if dp_pays else 0
        dealer |= {"seat": seat, "bank": dollars(fee + draw(st.integers(0, 400_000)))}
    return dealer


def _player_and_lowest_ante(table, players, index):
    """R6: the spot's player, and the lowest ante it may bet: double the table minimum for a
    player on two spots. A third spot, or a table whose maximum is below double the minimum,
    makes the spot its own player instead."""
    player = players[index]
    two_spots = player is not None and players.count(player) >= 2
    if player is not None and players[: index + 1].count(player) > 2:
        player = None
    ante_min = _cents(table["ante_min"])
    lowest = ante_min * (2 if two_spots else 1)
    if lowest > _cents(table["ante_max"]):
        return None, ante_min
    return player, lowest


@st.composite
def _wagers(draw, table, player, lowest_ante):
    """R5: an ante from ``lowest_ante`` to the table maximum, and each bonus or not, in chips."""
    unit = _cents(table["chip_unit"])
    ante = draw(st.integers(-(-lowest_ante // unit), _cents(table["ante_max"]) // unit)) * unit
    wagers = {"ante": dollars(ante)}
    if player is not None:
        wagers["player"] = player
    low, high = _cents(table["bonus_min"]) // unit, _cents(table["bonus_max"]) // unit
    for bonus in ("flush_bonus", "straight_flush_bonus"):
        if draw(st.booleans()):
            wagers[bonus] = dollars(draw(st.integers(low, high)) * unit)
    return wagers


@st.composite
def _cards_and_decision(draw, table, cards, ante):
    """The spot's cards and decision; a raise within R8's multiple for the hand's flush size."""
    decision = draw(st.sampled_from(["raise", "raise", "fold", "walked_away"]))
    played = {"cards": " ".join(cards), "decision": decision}
    if decision == "raise":
        unit = _cents(table["chip_unit"])
        size = flush_size(flush_key(_parse_hand(played["cards"], field="")))
        cap = ante * raise_cap_multiple(size)
        played["raise"] = dollars(draw(st.integers(ante // unit, cap // unit)) * unit)
    return played


def _cents(amount: str) -> int:
    whole, _, part = amount.partition(".")
    return int(whole) * 100 + int(part.ljust(2, "0"))
