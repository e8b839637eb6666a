"""REST API for the cage: shifts and chip denominations, table inventory counts, fills and
credits, drop boxes and their counts, shift and gaming-day close, the table-games statistics
(JSON and CSV) — one module per area. Views only parse, call one service and answer.

Who: floor supervisors verify counts, request and void slips, sign off variances and close
shifts; the dealer on duty (or another supervisor) signs a slip's delivery; the count team
enters drop counts and reads the drop boxes it counts (blind: no expected figure), nothing
else; compliance reads everything and closes the gaming day.

Every second person of a control signs in the request that needs them: ``{"username",
"secret"}`` (their password or signing PIN), never an id picked from a list; the person
signed in signs as themselves with ``{"secret"}``. Answers name each person by id and by name.
"""

from __future__ import annotations

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
from .slips import SlipDeliver, SlipDetail, SlipVoid, TableSlips

__all__ = [
    "CardroomCageLimit",
    "CardroomDenominations",
    "CardroomShifts",
    "DayCloses",
    "DropBoxes",
    "DropCountSignOff",
    "ShiftCloses",
    "SlipDeliver",
    "SlipDetail",
    "SlipVoid",
    "Statistics",
    "StatisticsCsv",
    "TableDropCount",
    "TableInventory",
    "TableSlips",
    "CageControls",
    "CountSheet",
    "Discrepancies",
    "DropBoxSteps",
    "DropCountCorrections",
    "TableDropBoxes",
]
