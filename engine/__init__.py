"""The pure High Card Flush engine: no Django, no database, no I/O.

``settle`` is the one function that settles a round (R9–R15); the persisted hands, the API,
the screens and ``manage.py settle_round`` all go through it.
"""

from .contract import settle_json, settle_json_text
from .errors import ConservationError, RoundError
from .results import Outcome, Settlement, SpotStatus
from .round import DeadReason, Dealer, Decision, Misdeal, Round, Spot
from .round_json import round_from_json, table_from_json
from .settlement import settle
from .settlement_json import settlement_to_json, settlement_to_json_text
from .table import Banking, BonusMode, TableRules

__all__ = [
    "Banking",
    "BonusMode",
    "ConservationError",
    "DeadReason",
    "Dealer",
    "Decision",
    "Misdeal",
    "Outcome",
    "Round",
    "RoundError",
    "Settlement",
    "Spot",
    "SpotStatus",
    "TableRules",
    "round_from_json",
    "settle",
    "settle_json",
    "settle_json_text",
    "settlement_to_json",
    "settlement_to_json_text",
    "table_from_json",
]
