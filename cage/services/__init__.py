"""Writes for the cage: table inventory counts, fills and credits, drop counts and their
variances, shift close and gaming-day close — one module per area.

Every service is one transaction that locks (the cardroom's serial counter, the table, then
the audit chain, which ``audit_record`` locks last) and records its audit event. A closed
shift or gaming day takes no more cage records: they are refused with a Conflict, as is
anything out of order (a fill to a closed table, a second opening count, a drop box counted
before its shift is over). Records are append-only: a delivery, a void, a reprint, a sign-off
is a new row.

Every second person of a control signs by authenticating at that moment (design.md 8): the
dealer who counts a rack, the second counter of a drop box, the person who signs for a fill or
a credit, a void's witness; the supervisor who verifies a count, signs off a variance or
closes a shift, and compliance closing the day, sign with their own password or PIN too. Each
signature is kept on its record (``tables.Signature``), the record's own columns naming the
person who authenticated.
"""

from __future__ import annotations

from .closes import gaming_day_close, shift_close
from .common import count_parse
from .controls import cage_controls_set
from .counts import inventory_count_record
from .drop import drop_count_record, drop_variance_sign_off
from .drop_boxes import drop_box_issue, drop_box_step
from .drop_corrections import drop_count_correct
from .slips import slip_deliver, slip_print, slip_request, slip_void
from .variances import rack_count_escalate, variance_escalate

__all__ = [
    "count_parse",
    "drop_count_record",
    "drop_variance_sign_off",
    "gaming_day_close",
    "inventory_count_record",
    "shift_close",
    "slip_deliver",
    "slip_print",
    "slip_request",
    "slip_void",
    "cage_controls_set",
    "drop_box_issue",
    "drop_box_step",
    "drop_count_correct",
    "rack_count_escalate",
    "variance_escalate",
]
