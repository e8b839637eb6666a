"""Forms of the floor's staff screen: a new account, a role, a deactivation."""

from __future__ import annotations

from django import forms

from tables.staff import STAFF_ROLES

ROLE_CHOICES = [(role, role) for role in STAFF_ROLES]


class StaffCreateForm(forms.Form):
    first_name = forms.CharField(max_length=150, label="First name")
    last_name = forms.CharField(max_length=150, label="Last name", required=False)
    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=ROLE_CHOICES, label="Role")
    password = forms.CharField(
        label="First password",
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="Hand it over in person; they change it at /accounts/password_change/.",
    )


class StaffRoleForm(forms.Form):
    role = forms.ChoiceField(choices=ROLE_CHOICES, label="Role")


class StaffDeactivateForm(forms.Form):
    reason = forms.CharField(max_length=200, label="Why")
