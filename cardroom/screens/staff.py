"""The staff screen (floor supervisors and administrators): accounts by name, a new account —
made at once (a dealer, or anything an administrator makes) or proposed for a second person —
role changes, deactivation, set-up links, and the proposals waiting for a decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cardroom.signing import own_signature
from core.roles import ADMINISTRATOR, FLOOR_SUPERVISOR, ROLES, role_of
from patrons.models import Cardroom
from tables import setup_links, staff, staff_selectors, two_person
from tables.models import TwoPersonChange
from tables.services import memberships

from .base import Actions, SignedInRequest, call_service, role_required
from .forms.staff import (
    StaffCardroomForm,
    StaffCreateForm,
    StaffDeactivateForm,
    StaffDecisionForm,
    StaffRoleForm,
)

staff_keepers = role_required(FLOOR_SUPERVISOR, ADMINISTRATOR)


def _roles_for(user: User) -> tuple[str, ...]:
    return ROLES if role_of(user) == ADMINISTRATOR else staff.STAFF_ROLES


def _page(
    request: SignedInRequest,
    *,
    forms_shown: dict[str, forms.Form] | None = None,
    link: setup_links.SetupLink | None = None,
    proposed: TwoPersonChange | None = None,
) -> HttpResponseBase:
    shown = forms_shown or {}
    roles = _roles_for(request.user)
    context: dict[str, Any] = {
        "rows": staff_selectors.staff_rows(request.user, staff.STAFF_ROLES),
        "pending": staff_selectors.pending_staff_changes(),
        "decided": staff_selectors.decided_staff_changes(),
        "form": shown.get("create") or StaffCreateForm(roles=roles),
        "action_form": shown.get("action"),
        "role_choices": roles,
        "is_administrator": role_of(request.user) == ADMINISTRATOR,
        "grantable": _grantable(request.user),
        "setup_link": link and request.build_absolute_uri(link.path),
        "setup_for": link and link.user,
        "proposed": proposed,
    }
    failed = any(form.errors for form in shown.values())
    return render(request, "floor/staff.html", context, status=422 if failed else 200)


def _grantable(user: User) -> list[tuple[int, str]]:
    """The cardrooms an administrator who works in several may grant or withdraw."""
    rooms = staff_selectors.cardrooms_of(user)
    if role_of(user) != ADMINISTRATOR or len(rooms) < 2:
        return []
    names = Cardroom._base_manager.filter(pk__in=rooms).order_by("name")
    return list(names.values_list("pk", "name"))


@staff_keepers
def staff_list(request: SignedInRequest) -> HttpResponseBase:
    """The accounts; a new one is made at once when its role allows, else proposed."""
    if request.method != "POST":
        return _page(request)
    form = StaffCreateForm(request.POST, roles=_roles_for(request.user))
    if not form.is_valid():
        return _page(request, forms_shown={"create": form})
    data = form.cleaned_data
    if staff.needs_second_person(data["role"], request.user):
        proposed = call_service(
            request, form, lambda: staff.staff_account_propose(**data, by=request.user)
        )
        if proposed is None:
            return _page(request, forms_shown={"create": form})
        return _page(request, proposed=proposed)
    data.pop("reason")
    link = call_service(request, form, lambda: staff.staff_create(**data, by=request.user))
    if link is None:
        return _page(request, forms_shown={"create": form})
    return _page(request, link=link)


#: The actions on an account, by the ``<action>`` of their URL.
staff_actions: Actions[Callable[[SignedInRequest, User], HttpResponseBase]] = Actions()


@require_POST
@staff_keepers
def staff_action(request: SignedInRequest, pk: int, action: str) -> HttpResponseBase:
    """role: give the account one role (or propose it); deactivate: end its access; link: a
    new one-time set-up link."""
    member = get_object_or_404(
        staff_selectors.in_the_requests_cardrooms(User.objects.all()), pk=pk, is_superuser=False
    )
    return staff_actions.handler(action)(request, member)


@staff_actions("link")
def _link(request: SignedInRequest, member: User) -> HttpResponseBase:
    form = forms.Form(request.POST)
    link = call_service(
        request, form, lambda: setup_links.setup_link_reissue(user=member, by=request.user)
    )
    return _page(request, link=link) if link else _page(request, forms_shown={"action": form})


@staff_actions("role")
def _role(request: SignedInRequest, member: User) -> HttpResponseBase:
    form = StaffRoleForm(request.POST)
    if not form.is_valid():
        return _page(request, forms_shown={"action": form})
    by = request.user
    role, reason = form.cleaned_data["role"], form.cleaned_data["reason"]
    if staff.needs_second_person(role, by):
        proposed = call_service(
            request,
            form,
            lambda: staff.staff_role_propose(user=member, role=role, reason=reason, by=by),
        )
        if proposed:
            return _page(request, proposed=proposed)
        return _page(request, forms_shown={"action": form})
    done = call_service(request, form, lambda: staff.staff_role_set(user=member, role=role, by=by))
    return redirect("floor-staff") if done else _page(request, forms_shown={"action": form})


@staff_actions("deactivate")
def _deactivate(request: SignedInRequest, member: User) -> HttpResponseBase:
    form = StaffDeactivateForm(request.POST)
    done = form.is_valid() and call_service(
        request,
        form,
        lambda: staff.staff_deactivate(
            user=member, reason=form.cleaned_data["reason"], by=request.user
        ),
    )
    return redirect("floor-staff") if done else _page(request, forms_shown={"action": form})


@staff_actions("cardroom")
def _cardroom(request: SignedInRequest, member: User) -> HttpResponseBase:
    """Grant (``works`` = 1) or withdraw (0) one of the administrator's cardrooms."""
    form = StaffCardroomForm(request.POST, rooms=[pk for pk, _ in _grantable(request.user)])
    if not form.is_valid():
        return _page(request, forms_shown={"action": form})
    room = Cardroom._base_manager.get(pk=form.cleaned_data["cardroom"])
    if form.cleaned_data["works"]:
        change: Callable[..., Any] = memberships.membership_grant
    else:
        change = memberships.membership_withdraw
    done = call_service(
        request, form, lambda: change(user=member, cardroom=room, by=request.user) or True
    )
    return redirect("floor-staff") if done else _page(request, forms_shown={"action": form})


#: The decisions on a proposed account or role: what each calls, given the change and the form.
Decide = Callable[[SignedInRequest, TwoPersonChange, dict[str, Any]], Any]
change_actions: Actions[Decide] = Actions()


@change_actions("approve")
def _approve(request: SignedInRequest, change: TwoPersonChange, data: dict[str, Any]) -> Any:
    signed = own_signature(request, data["secret"])
    return two_person.change_approve(change=change, signature=signed, by=request.user)


@change_actions("reject")
def _reject(request: SignedInRequest, change: TwoPersonChange, data: dict[str, Any]) -> Any:
    return two_person.change_reject(change=change, reason=data["reason"], by=request.user)


@change_actions("withdraw")
def _withdraw(request: SignedInRequest, change: TwoPersonChange, data: dict[str, Any]) -> Any:
    return two_person.change_withdraw(change=change, by=request.user)


@require_POST
@staff_keepers
def staff_change_action(request: SignedInRequest, pk: int, action: str) -> HttpResponseBase:
    """approve (signed), reject or withdraw a proposed account or role."""
    change = get_object_or_404(staff_selectors.pending_staff_changes(), pk=pk)
    decide = change_actions.handler(action)
    form = StaffDecisionForm(request.POST)
    if not form.is_valid():
        return _page(request, forms_shown={"action": form})
    decision = call_service(
        request,
        form,
        lambda: decide(request, change, form.cleaned_data),
        fields={"signature": "secret"},
    )
    if decision is None:
        return _page(request, forms_shown={"action": form})
    made = decision.result
    if action == "approve" and change.kind == TwoPersonChange.Kind.STAFF_ACCOUNT and made:
        return _page(request, link=setup_links.setup_link(made))
    return redirect("floor-staff")
