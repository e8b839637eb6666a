"""Reads of the slips' signature chain: which step each slip waits for, the slips awaiting a
step (the cashier's, the runner's, the dealer's, the floor's), and the completed slips whose
original the drop count has not found (Nevada MICS, fills and credits: the original in the
table's drop box, the duplicate at the cage, matched)."""

from __future__ import annotations

from datetime import date
from typing import Any

from patrons.models import Cardroom

from .models import Slip, SlipStep


def slip_steps_done(slip: Slip) -> list[SlipStep]:
    return list(SlipStep.objects.filter(slip=slip).select_related("person").order_by("id"))


def slip_chain(slip: Slip, done: list[SlipStep]) -> tuple[str, ...]:
    """The slip's steps: the runner's where the cardroom sets one (or one carried it already)."""
    runner = slip.cardroom.runner_required or any(s.step == SlipStep.Name.CARRIED for s in done)
    return SlipStep.chain(slip.kind, runner=runner)


def slip_next_step(slip: Slip, done: list[SlipStep] | None = None) -> str | None:
    """The step the slip waits for; None once every step is signed (its chips moved)."""
    done = slip_steps_done(slip) if done is None else done
    signed = {s.step for s in done}
    return next((step for step in slip_chain(slip, done) if step not in signed), None)


def slips_awaiting(step: str, *, cardroom: Cardroom | None = None, table: Any = None) -> list[Slip]:
    """The slips neither void nor delivered that wait for ``step``, oldest first."""
    rows = (
        Slip.objects.filter(delivery__isnull=True, void__isnull=True)
        .select_related("cardroom", "table", "requested_by")
        .prefetch_related("steps__person")
        .order_by("id")
    )
    if cardroom is not None:
        rows = rows.filter(cardroom=cardroom)
    if table is not None:
        rows = rows.filter(table=table)
    return [slip for slip in rows if slip_next_step(slip, list(slip.steps.all())) == step]


def slips_unmatched(cardroom: Cardroom, day: date, shift: str) -> list[Slip]:
    """The shift's completed slips whose original the drop count has not recorded: each one a
    duplicate at the cage without its match."""
    return list(
        Slip.objects.filter(cardroom=cardroom, gaming_day=day, shift=shift)
        .filter(delivery__isnull=False, void__isnull=True, original__isnull=True)
        .select_related("table")
        .order_by("id")
    )
