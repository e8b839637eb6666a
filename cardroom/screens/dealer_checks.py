"""What the dealer's steps check before they act. A step that records every seat at once
(wagers, decisions) calls one batch service, which stops at its first refusal; when it refuses,
each seat is tried alone, in a transaction rolled back, so that every wrong field is shown at
once beside its own seat. A step that settles asks first, but only once it would pass: it is
tried in a transaction rolled back (``tried``), and what it says it will do is ``asks_first``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django import forms
from django.db import transaction

from core.errors import DomainError
from wagers.models import Hand

from .forms.hands import DecisionsForm

# The services' field names where a form calls them otherwise.
FIELD_NAMES = {f"cards.{seat}": f"cards_{seat}" for seat in range(1, 8)} | {
    "designated_player": None,
    "status": None,
}


def batch_or_every_error(
    batch: Callable[[], Any],
    form: forms.Form,
    calls: list[tuple[int, Callable[..., Any]]],
    nothing: str,
    neutral: dict[str, str] | None = None,
) -> Any:
    """One batch service call for the whole hand (every spot or none, one request). The batch
    stops at its first refusal; when it refuses, each seat is tried alone, in a transaction
    always rolled back, so that every wrong field is shown at once next to its own seat."""
    try:
        return batch()
    except DomainError:
        failed = every_error(form, calls, neutral)
        if not failed:
            raise  # a refusal of the batch as a whole: its own message
    raise DomainError(f"{nothing}: correct the {_fields(failed)} marked below.")


class _StandIn(Exception):
    """A seat's call passed with a stand-in value: undone, it only showed the other fields."""


def every_error(
    form: forms.Form,
    calls: Iterable[tuple[int, Callable[..., Any]]],
    neutral: dict[str, str] | None = None,
) -> int:
    """Try each seat's call alone and put each refusal next to its own seat's field; nothing
    tried here stays (the transaction is rolled back). A service stops at a seat's first wrong
    field: when that field has a ``neutral`` value (no bonus, the lowest ante), the seat is
    tried again with it instead, until it passes or names a field again, so that each of its
    wrong fields is named. Returns how many fields were refused."""
    failed = 0
    with transaction.atomic():
        for seat, call in calls:
            instead: dict[str, str] = {}
            while True:
                try:
                    with transaction.atomic():
                        call(**instead)
                        if instead:
                            raise _StandIn
                    break
                except _StandIn:
                    break
                except DomainError as error:
                    failed += 1
                    field = f"{FIELD_NAMES.get(error.field or '', error.field)}_{seat}"
                    if field in form.fields:
                        form.add_error(field, error.message)
                    else:
                        form.add_error(None, f"Seat {seat}: {error.message}")
                    name = error.field or ""
                    if name in instead or name not in (neutral or {}):
                        break
                    instead[name] = (neutral or {})[name]
        transaction.set_rollback(True)
    return failed


def _fields(count: int) -> str:
    return "field" if count == 1 else f"{count} fields"


def _settle_sentence(hand: Hand | None, form: forms.Form) -> str | None:
    """What Settle says it will do; None for a post that settles nothing (decisions only)."""
    if hand is None:
        return None
    ending = "The chips move, and a settled hand is only ever corrected, never edited."
    if not isinstance(form, DecisionsForm):
        return f"Settle hand {hand.number}? {ending}"
    if not form.cleaned_data.get("settle"):
        return None
    names = dict(hand.spots.values_list("seat", "player__name"))
    said = []
    for seat, decision in form.decisions().items():
        who = f"seat {seat} ({names.get(seat, '')})"
        if decision["decision"] == "raise":
            said.append(f"{who} raises ${decision['raise_amount']}")
        else:
            said.append(
                f"{who} {'walked away' if decision['decision'] == 'walked_away' else 'folds'}"
            )
    decided = f" ({'; '.join(said)})" if said else ""
    return f"Settle hand {hand.number} with these decisions?{decided} {ending}"


#: The steps that ask before they act, only once the post would succeed (tried first in a
#: transaction rolled back): what each says it will do, from its hand and its valid form.
asks_first: dict[str, Callable[[Hand | None, forms.Form], str | None]] = {
    "decisions": _settle_sentence,
    "settle": _settle_sentence,
}


def tried(run: Callable[[dict[str, Any]], Any], data: dict[str, Any]) -> Any:
    """``run`` in a transaction always rolled back: whether the step would succeed (its result)
    or what it refuses (its DomainError), with nothing changed."""
    with transaction.atomic():
        result = run(data)
        transaction.set_rollback(True)
    return result
