"""Forms of the staff screen and of a person's own account: a new account (made, or proposed
for a second person's approval), a role, a deactivation, a decision on a proposal, the set-up
link's page and the signing PIN."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import SetPasswordForm

from core.roles import ROLES

from .signing import SECRET_FIELD


def _role_choices(roles: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(role, role) for role in roles]


class StaffCreateForm(forms.Form):
    first_name = forms.CharField(max_length=150, label="First name")
    last_name = forms.CharField(max_length=150, label="Last name", required=False)
    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=_role_choices(ROLES), label="Role")
    reason = forms.CharField(
        max_length=200,
        label="Why",
        required=False,
        help_text="Asked when a second person must approve the account.",
    )

    def __init__(self, *args: Any, roles: tuple[str, ...] = ROLES, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        role = self.fields["role"]
        assert isinstance(role, forms.ChoiceField)
        role.choices = _role_choices(roles)


class StaffRoleForm(forms.Form):
    role = forms.ChoiceField(choices=_role_choices(ROLES), label="Role")
    reason = forms.CharField(max_length=200, label="Why", required=False)


class StaffDeactivateForm(forms.Form):
    reason = forms.CharField(max_length=200, label="Why")


class StaffCardroomForm(forms.Form):
    """One of the administrator's cardrooms, granted (``works`` 1) or withdrawn (0)."""

    cardroom = forms.TypedChoiceField(coerce=int, label="Cardroom")
    works = forms.TypedChoiceField(coerce=int, choices=[(1, "grant"), (0, "withdraw")])

    def __init__(self, *args: Any, rooms: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["cardroom"].choices = [(pk, pk) for pk in rooms]  # type: ignore[attr-defined]


class StaffDecisionForm(forms.Form):
    """Approve (signed with the approver's password or PIN), reject (with a reason), or
    withdraw a proposed account or role."""

    reason = forms.CharField(max_length=200, label="Why", required=False)
    secret = SECRET_FIELD()


class AccountSetUpForm(SetPasswordForm):
    """The new account's person chooses its password, and may choose a signing PIN."""

    pin = forms.CharField(
        label="Signing PIN (optional)",
        required=False,
        max_length=12,
        strip=False,
        help_text="4 to 12 digits, to sign counts, slips and approvals. You can set it later.",
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


class PinForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    pin = forms.CharField(
        label="New signing PIN",
        max_length=12,
        strip=False,
        help_text="4 to 12 digits; not one digit repeated nor a straight run like 1234.",
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
