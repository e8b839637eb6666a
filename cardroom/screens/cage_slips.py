"""The cage's side of fills and credits: the cashier prepares each fill the floor requests
(then prints it: the original goes with the chips to the table's drop box, the duplicate stays
at the cage), hands the chips to the runner where the cardroom sets one (the runner signs on
this device), and receives each credit's chips, counting and signing as themselves. No list of
names to pick from: every signer types their own password or PIN (design.md 8)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cage import services
from cage.models import Slip, SlipStep
from cage.slip_selectors import slips_awaiting
from cardroom.signing import own_signature, signature
from core.roles import CASHIER, FLOOR_SUPERVISOR

from .base import Actions, SignedInRequest, call_service, role_required
from .cage import cardroom_first
from .forms.cage import RunnerForm, SlipSignForm

#: The cashier; a floor supervisor may hand a credit's chips to the runner from here too.
cage_staff = role_required(CASHIER, FLOOR_SUPERVISOR)

#: The sections of the page: the step each waits for, its title, its form's action.
SECTIONS = (
    (SlipStep.Name.PREPARED, "Fills to prepare", "prepare"),
    (SlipStep.Name.CARRIED, "Chips for the runner", "carry"),
    (SlipStep.Name.CAGE_RECEIVED, "Credits to receive", "receive"),
)


def _pieces(slip: Slip) -> list[tuple[str, int, Decimal]]:
    return [(d, n, Decimal(d) * n) for d, n in slip.chips.items() if n]


@cage_staff
def cage_slips(request: SignedInRequest, forms: dict[str, Any] | None = None) -> HttpResponseBase:
    cardroom = cardroom_first()
    forms = forms or {}
    sections = [
        {
            "step": str(step),
            "title": title,
            "action": action,
            "slips": [(s, _pieces(s)) for s in slips_awaiting(step, cardroom=cardroom)],
            "form": forms.get(action),
        }
        for step, title, action in SECTIONS
    ]
    context = {
        "sections": sections,
        "failed_slip": _failed(forms),
        # A refused step's reason shows at the top, wherever (or whether) its slip is listed.
        "refused_form": next(iter(forms.values()), None),
    }
    return render(request, "cage/slips.html", context, status=422 if forms else 200)


def _failed(forms: dict[str, Any]) -> int | None:
    for form in forms.values():
        return int(form.data.get("slip") or 0) or None
    return None


#: The page's actions, by the ``<action>`` of their URL.
slip_actions: Actions[Callable[[SignedInRequest], HttpResponseBase]] = Actions()


@require_POST
@cage_staff
def cage_slip_action(request: SignedInRequest, action: str) -> HttpResponseBase:
    """prepare, carry, receive."""
    return slip_actions.handler(action)(request)


def _slip(form: Any) -> Slip:
    return get_object_or_404(Slip, pk=form.cleaned_data["slip"])


def _cage_step_sentence(request: HttpRequest) -> str | None:
    """What the cashier's signature does: a fill's chips leave the cage, a credit's come in."""
    form = SlipSignForm(request.POST)
    if not form.is_valid():
        return None
    slip = Slip.objects.filter(pk=form.cleaned_data["slip"]).select_related("table").first()
    if slip is None:
        return None
    total = f"${slip.total:,}"
    if slip.kind == Slip.Kind.FILL:
        return (
            f"Prepares fill {slip.number} for {slip.table} as you: {total} in chips leave the "
            "cage's books."
        )
    return (
        f"Receives credit {slip.number} from {slip.table} as you: {total} in chips come into "
        "the cage and leave the table's rack."
    )


@slip_actions("prepare", confirm=_cage_step_sentence)
def _prepare(request: SignedInRequest) -> HttpResponseBase:
    return _own(request, "prepare", services.slip_prepare)


@slip_actions("receive", confirm=_cage_step_sentence)
def _receive(request: SignedInRequest) -> HttpResponseBase:
    return _own(request, "receive", services.slip_cage_receive)


def _own(request: SignedInRequest, action: str, service: Callable[..., Any]) -> HttpResponseBase:
    """The cashier signed in signs the step as themselves."""
    form = SlipSignForm(request.POST)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: service(
            slip=_slip(form),
            signature=own_signature(request, form.cleaned_data["secret"]),
            by=request.user,
        ),
        fields=SlipSignForm.SERVICE_FIELDS,
    )
    return redirect("cage-slips") if ok else cage_slips(request, {action: form})


@slip_actions("carry")
def _carry(request: SignedInRequest) -> HttpResponseBase:
    """The runner signs on this device, typing their username and password or PIN."""
    form = RunnerForm(request.POST)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.slip_carry(
            slip=_slip(form),
            signature=signature(
                request, form.cleaned_data["runner"], form.cleaned_data["runner_secret"]
            ),
            by=request.user,
        ),
        fields=RunnerForm.SERVICE_FIELDS,
    )
    return redirect("cage-slips") if ok else cage_slips(request, {"carry": form})
