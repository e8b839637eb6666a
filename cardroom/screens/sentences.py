"""What each close, void and signature says it will do, before it does it
(``screens.confirmation``): "Closes Table 2 and cashes out 3 seated players, $1,355.00 in all".

A sentence reads the request as posted, through the action's own form; it is ``None`` when that
form is not valid, so that the action answers with its errors without asking. The internal
controls ask for this: a closer (a closing count, a shift or day close) and a void are
deliberate acts the signer knows the effect of (N.J.A.C. 13:69D-1.21, Nevada MICS table games,
25 CFR 543.18).
"""

from __future__ import annotations

from decimal import Decimal

from django.http import HttpRequest

from cage import selectors as cage_selectors
from cage.models import DropCount, InventoryCount, Slip
from cage.selectors import DayStatistics, ShiftStatistics
from core.money import dollars_text
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.models import Table
from tables.staff_models import SettingChange

from .base import working_cardroom
from .forms.cage import (
    DayCloseForm,
    DealerSignForm,
    DropCountForm,
    InventoryCountForm,
    PiecesForm,
    ShiftCloseForm,
    SignOffForm,
    SlipSignForm,
    VoidForm,
)
from .forms.tables import ChangeForm, setting_label


def dollars(amount: Decimal) -> str:
    """``Decimal("1355")`` → ``"$1,355.00"``; a shortage ``"-$5.00"``."""
    return dollars_text(amount)


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def pieces_words(form: PiecesForm, kind: str) -> str:
    return ", ".join(f"{n}×${d}" for d, n in form.pieces(kind).items() if n) or "no chips"


def seated_cash_out(table: Table) -> str:
    """'cashes out 3 seated players, $1,355.00 in all' (or 'no player is seated')."""
    stacks = [seating.stack for seating in table_selectors.seated(table)]
    if not stacks:
        return "no player is seated"
    total = sum(stacks, Decimal("0.00"))
    return f"cashes out {plural(len(stacks), 'seated player')}, {dollars(total)} in all"


def table_close(request: HttpRequest, table: Table) -> str:
    """The floor's table close: the session ends and every seated player cashes out."""
    return f"Closes {table} and {seated_cash_out(table)}."


def setting_change_approve(request: HttpRequest, table: Table) -> str | None:
    """R17: the second person approves and signs a table's setting change."""
    form = ChangeForm(request.POST)
    if not form.is_valid() or not form.cleaned_data["secret"]:
        return None
    change = SettingChange.objects.filter(pk=form.cleaned_data["change"], table=table).first()
    if change is None:
        return None
    names = ", ".join(setting_label(name).lower() for name in change.new_values)
    return (
        f"Approves and signs change #{change.pk} to {table} ({names}): the new settings apply "
        "from the next hand, and an approval cannot be undone."
    )


def _chips(table: Table) -> dict[str, list[str]]:
    return {"chips": table.cardroom.chip_denominations}


def inventory_count(request: HttpRequest, table: Table) -> str | None:
    """A rack count: what it records, and for a closing count the close it makes."""
    form = InventoryCountForm(request.POST, denominations=_chips(table))
    if not form.is_valid():
        return None
    kind = InventoryCount.Kind(form.cleaned_data["kind"])
    counted = (
        f"{dollars(form.total('chips'))} in chips ({pieces_words(form, 'chips')}), "
        f"counted by {form.cleaned_data['counted_by']} and verified by you"
    )
    if kind == InventoryCount.Kind.CLOSING:
        return f"Records the closing count of {table}'s rack, {counted}; closes {table} and " + (
            f"{seated_cash_out(table)}."
        )
    return f"Records the {kind.label.lower()} count of {table}'s rack: {counted}."


def _slip(form: VoidForm | SlipSignForm, table: Table) -> Slip | None:
    return Slip.objects.filter(pk=form.cleaned_data["slip"], table=table).first()


def _rack_move(slip: Slip) -> str:
    where = "go into" if slip.kind == Slip.Kind.FILL else "leave"
    return f"{dollars(slip.total)} in chips {where} the rack of {slip.table}"


def slip_void(request: HttpRequest, table: Table) -> str | None:
    form = VoidForm(request.POST)
    slip = _slip(form, table) if form.is_valid() else None
    if slip is None:
        return None
    return (
        f"Voids {slip.get_kind_display().lower()} {slip.number} ({dollars(slip.total)}) at "
        f"{table}, witnessed by {form.cleaned_data['witness']}: no chips move, and its number "
        "is never used again."
    )


def slip_sign(request: HttpRequest, table: Table) -> str | None:
    """The floor supervisor signed in signs a slip the dealer has counted: its last step for a
    fill (the rack moves), or the floor's step of a credit."""
    form = SlipSignForm(request.POST)
    slip = _slip(form, table) if form.is_valid() else None
    if slip is None:
        return None
    if slip.kind == Slip.Kind.FILL:
        return f"Signs fill {slip.number} as you: {_rack_move(slip)}."
    return (
        f"Signs credit {slip.number} as you; the chips go to the cage for the cashier to receive."
    )


def dealer_slip_sign(request: HttpRequest, table: Table, *, pk: int, slip: int) -> str | None:
    """The dealer at the table signs for a slip with their own password or PIN."""
    waiting = Slip.objects.filter(pk=slip, table=table).select_related("table").first()
    if waiting is None or not DealerSignForm(request.POST).is_valid():
        return None
    return (
        f"Signs {waiting.get_kind_display().lower()} {waiting.number} as you, counted: "
        f"{dollars(waiting.total)} in chips; a floor supervisor signs next. Sign only once you "
        "have counted them."
    )


def variance_sign_off(request: HttpRequest, cardroom: Cardroom) -> str | None:
    form = SignOffForm(request.POST)
    if not form.is_valid():
        return None
    count = DropCount.objects.filter(pk=form.cleaned_data["count"]).select_related("table").first()
    if count is None:
        return None
    return (
        f"Signs off the drop variance of {dollars(count.variance)} at {count.table} "
        f"({count.gaming_day}, {count.shift} shift) with your signature, for "
        f"“{form.cleaned_data['reason']}”."
    )


def shift_close(request: HttpRequest, cardroom: Cardroom) -> str | None:
    form = ShiftCloseForm(request.POST)
    if not form.is_valid():
        return None
    day, shift = form.cleaned_data["gaming_day"], form.cleaned_data["shift"]
    return shift_close_words(cage_selectors.shift_statistics(cardroom, day, shift))


def shift_close_words(stats: ShiftStatistics) -> str:
    return (
        f"Closes the {stats.shift} shift of {stats.day} at {plural(len(stats.tables), 'table')}: "
        f"drop {dollars(stats.totals.drop)}, win {dollars(stats.totals.win)}. Its figures are "
        "final; anything booked later goes to the current shift."
    )


def day_close(request: HttpRequest, cardroom: Cardroom) -> str | None:
    form = DayCloseForm(request.POST)
    if not form.is_valid():
        return None
    return day_close_words(cage_selectors.day_statistics(cardroom, form.cleaned_data["gaming_day"]))


def day_close_words(stats: DayStatistics) -> str:
    return (
        f"Closes the gaming day {stats.day} ({plural(len(stats.shifts), 'shift')}): drop "
        f"{dollars(stats.totals.drop)}, win {dollars(stats.totals.win)}, signed by you with an "
        "audit checkpoint. Nothing booked later changes its figures."
    )


def drop_count(request: HttpRequest) -> str | None:
    """A drop box's count (4 CCR §12385): what the box held, and who counts it with you."""
    cardroom = working_cardroom()
    if cardroom is None:
        return None
    denominations = {
        "cash": list(cage_selectors.CASH_DENOMINATIONS),
        "chips": cardroom.chip_denominations,
    }
    form = DropCountForm(request.POST, denominations=denominations)
    if not form.is_valid():
        return None
    table = Table.objects.filter(pk=form.cleaned_data["table"], cardroom=cardroom).first()
    if table is None:
        return None
    cash, chips = form.total("cash"), form.total("chips")
    return (
        f"Records the count of {table}'s drop box: {dollars(cash + chips)} (cash "
        f"{dollars(cash)}, chips {dollars(chips)}), counted by you and "
        f"{form.cleaned_data['second_counter']}."
    )
