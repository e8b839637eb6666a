"""The cage's records: table inventory counts, fill and credit slips, drop counts, shift and
gaming-day closes, and the cage's own books (``cashier``: cashier shifts, cage counts, cage
entries, chips issued). Every one is append-only in the database: a delivery, a void, a reprint or
a variance's sign-off is a new row, never an update. Writes go through ``cage.services``.

Chips are counted by denomination: ``{"25.00": 20, "100.00": 5}`` (the cardroom's chip
denominations, as money strings, to the number of chips); cash by bill, the same way.
"""

from .cashier import CageCount, CageEntry, CageShift, ChipIssue
from .closes import DayClose, ShiftClose
from .count_records import DropCountCorrection, DropCountCounter, DropSlipOriginal
from .counts import InventoryCount
from .drop import DropCount, VarianceSignOff
from .drop_boxes import DropBox, DropBoxStep
from .player_accounts import CurrencyExchange, Marker, MarkerPayment, PlayerAccountEntry
from .slip_steps import SlipOriginal, SlipStep
from .slips import SerialCounter, Slip, SlipDelivery, SlipPrint, SlipVoid
from .variances import Variance

__all__ = [
    "DayClose",
    "DropCount",
    "InventoryCount",
    "SerialCounter",
    "ShiftClose",
    "Slip",
    "SlipDelivery",
    "SlipPrint",
    "SlipVoid",
    "VarianceSignOff",
    "CageCount",
    "CageEntry",
    "CageShift",
    "ChipIssue",
    "SlipStep",
    "SlipOriginal",
    "DropBox",
    "DropBoxStep",
    "DropCountCorrection",
    "DropCountCounter",
    "DropSlipOriginal",
    "Variance",
    "CurrencyExchange",
    "Marker",
    "MarkerPayment",
    "PlayerAccountEntry",
]
