"""REST API for the cage: shifts and chip denominations, table inventory counts, fills and
credits, drop boxes and their counts, shift and gaming-day close, the table-games statistics
(JSON and CSV) — one module per area. Views only parse, call one service and answer.

Who: floor supervisors verify counts, request and void slips, sign off variances and close
shifts; a slip's chain is signed by the cashier, the runner, the dealer on duty and a floor
supervisor, each as themselves; the count team enters drop counts and reads the drop boxes it
counts (blind: no expected figure), nothing else; compliance reads everything and closes the
gaming day. The cashier holding the cage records its counts and transactions and players' cash
at the cage (``cashier``).

Every second person of a control signs in the request that needs them: ``{"username",
"secret"}`` (their password or signing PIN), never an id picked from a list; the person
signed in signs as themselves with ``{"secret"}``. Answers name each person by id and by name.
"""

from __future__ import annotations

from .cashier import (
    CageCounts,
    CageEntries,
    CagePlayerCash,
    CageState,
    ChipIssues,
    Circulation,
    CirculationCsv,
)
from .closes import DayCloses, ShiftCloses, Statistics, StatisticsCsv
from .configuration import CardroomCageLimit, CardroomDenominations, CardroomShifts
from .counts import TableInventory
from .custody import (
    CageControls,
    CountSheet,
    Discrepancies,
    DropBoxSteps,
    DropCountCorrections,
    TableDropBoxes,
)
from .drop import DropBoxes, DropCountSignOff, TableDropCount
from .late_counts import SessionLateClosingCount
from .player_money import (
    CurrencyExchanges,
    FrontMoney,
    MarkerPayments,
    Markers,
    PlayerBalances,
    Safekeeping,
)
from .slip_steps import (
    CardroomSlipsAwaiting,
    SlipCageReceive,
    SlipCarry,
    SlipDealerSign,
    SlipPrepare,
    SlipSupervisorSign,
)
from .slips import SlipDetail, SlipVoid, TableSlips

__all__ = [
    "CurrencyExchanges",
    "FrontMoney",
    "MarkerPayments",
    "Markers",
    "PlayerBalances",
    "Safekeeping",
    "CardroomCageLimit",
    "CardroomDenominations",
    "CardroomShifts",
    "DayCloses",
    "DropBoxes",
    "DropCountSignOff",
    "ShiftCloses",
    "SlipDetail",
    "SlipVoid",
    "Statistics",
    "StatisticsCsv",
    "TableDropCount",
    "TableInventory",
    "TableSlips",
    "SessionLateClosingCount",
    "CageCounts",
    "CageEntries",
    "CagePlayerCash",
    "CageState",
    "ChipIssues",
    "Circulation",
    "CirculationCsv",
    "SlipPrepare",
    "SlipCarry",
    "SlipDealerSign",
    "SlipSupervisorSign",
    "SlipCageReceive",
    "CardroomSlipsAwaiting",
    "CageControls",
    "CountSheet",
    "Discrepancies",
    "DropBoxSteps",
    "DropCountCorrections",
    "TableDropBoxes",
]
