"""Writes for the cage: table inventory counts, fills and credits, drop counts and their
variances, shift close and gaming-day close, and the cage as a department (``cashier``: the
cashier's counts; ``cage_ledger``: every cage transaction, chips issued; ``cashier_sales``:
players' cash at the cage) — one module per area.

Every service is one transaction that locks (the cardroom's serial counter, the table, then
the audit chain, which ``audit_record`` locks last) and records its audit event. A closed
shift or gaming day takes no more cage records: they are refused with a Conflict, as is
anything out of order (a fill to a closed table, a second opening count, a drop box counted
before its shift is over). Records are append-only: a delivery, a void, a reprint, a sign-off
is a new row.

Every second person of a control signs by authenticating at that moment (design.md 8): the
dealer who counts a rack, the second counter of a drop box, each person of a fill's or a
credit's chain (cashier, runner, dealer, floor supervisor), a void's witness; the supervisor
who verifies a count, signs off a variance or closes a shift, and compliance closing the day,
sign with their own password or PIN too. Each signature is kept on its record
(``tables.Signature``), the record's own columns naming the person who authenticated.
"""

from __future__ import annotations

from .cage_ledger import cage_cash_move, cage_entry_add, chip_issue_record
from .cashier import CountGiven, cage_close, cage_handover, cage_open
from .cashier_sales import cage_chips_redeem, cage_chips_sell
from .closes import gaming_day_close, shift_close
from .common import count_parse
from .controls import cage_controls_set
from .counts import inventory_count_record
from .denominations import cardroom_denominations_change
from .drop import drop_count_record, drop_variance_sign_off
from .drop_boxes import drop_box_issue, drop_box_step
from .drop_corrections import drop_count_correct
from .late_counts import inventory_late_closing_count_record
from .markers import currency_exchange, marker_issue, marker_pay
from .player_accounts import player_account_move
from .slip_chain import (
    slip_cage_receive,
    slip_carry,
    slip_dealer_sign,
    slip_prepare,
    slip_supervisor_sign,
)
from .slip_originals import slip_original_found
from .slips import slip_print, slip_request, slip_void
from .variances import rack_count_escalate, variance_escalate

__all__ = [
    "count_parse",
    "drop_count_record",
    "drop_variance_sign_off",
    "gaming_day_close",
    "inventory_count_record",
    "shift_close",
    "slip_print",
    "slip_request",
    "slip_void",
    "inventory_late_closing_count_record",
    "cardroom_denominations_change",
    "CountGiven",
    "cage_cash_move",
    "cage_chips_redeem",
    "cage_chips_sell",
    "cage_close",
    "cage_entry_add",
    "cage_handover",
    "cage_open",
    "chip_issue_record",
    "slip_prepare",
    "slip_carry",
    "slip_dealer_sign",
    "slip_supervisor_sign",
    "slip_cage_receive",
    "slip_original_found",
    "cage_controls_set",
    "drop_box_issue",
    "drop_box_step",
    "drop_count_correct",
    "rack_count_escalate",
    "variance_escalate",
    "currency_exchange",
    "marker_issue",
    "marker_pay",
    "player_account_move",
]
