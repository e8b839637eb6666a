"""Writes for hands: start, wagers, cards, decisions, dead hands, settlement, corrections.

The API, the screens and the tests call them through this package
(``from wagers import services; services.hand_start(...)``); each lives in the module of its
job: ``lifecycle`` (the state machine and a hand's next steps, the locked path, start and
cancel), ``play`` (wagers, cards, decisions, dead spots), ``currency_bets`` (money plays:
wagers put down in currency), ``shuffler`` (the cards a table's shuffler reports, each message
once), ``batches`` (a hand's wagers and decisions in one call each), ``holds`` (an exclusion
matched at the table: the seat held at once), ``settlement`` (settle, misdeal), ``booking``
(what a settlement entry stores and moves) and ``corrections``. The game rules are the
engine's: wagers are checked with its checks and hands are settled by ``engine.settle``;
nothing here re-implements them.
"""

from .batches import decisions_record_many, wagers_place_many
from .corrections import hand_correct
from .currency_bets import wager_place_in_currency
from .lifecycle import (
    Step,
    hand_cancel,
    hand_dp_bank_set,
    hand_next_steps,
    hand_start,
    hand_transition,
)
from .play import hand_cards_enter, hand_deal, spot_decide, spot_declare_dead, wager_place
from .settlement import hand_decide_and_settle, hand_declare_misdeal, hand_settle
from .shuffler import hand_cards_from_shuffler

__all__ = [
    "Step",
    "decisions_record_many",
    "hand_cancel",
    "hand_dp_bank_set",
    "hand_cards_enter",
    "hand_cards_from_shuffler",
    "hand_correct",
    "hand_deal",
    "hand_next_steps",
    "hand_decide_and_settle",
    "hand_declare_misdeal",
    "hand_settle",
    "hand_start",
    "hand_transition",
    "spot_decide",
    "spot_declare_dead",
    "wager_place",
    "wager_place_in_currency",
    "wagers_place_many",
]
