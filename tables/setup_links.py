"""A new account's set-up by its own person: the one-time link (valid for a day,
``PASSWORD_RESET_TIMEOUT``; it stops working once the password is set), the person choosing
their password and PIN through it, and the password change due after someone else chose one."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError, PermissionDenied
from core.people import person_name
from core.permissions import require_role
from core.roles import ADMINISTRATOR, FLOOR_SUPERVISOR, role_of

from .signatures import check_pin, pin_set
from .staff_models import StaffLineage, StaffProfile


class AccountSetupTokens(PasswordResetTokenGenerator):
    """The one-time link's token: it stops working once the account's password is set (the
    password hash is part of it) or after ``PASSWORD_RESET_TIMEOUT`` (a day)."""

    key_salt = "cardroom.tables.staff.AccountSetupTokens"


setup_tokens = AccountSetupTokens()


@dataclass(frozen=True)
class SetupLink:
    """Where an account's person sets its password: ``/accounts/setup/<uid>/<token>/``."""

    user: User
    uid: str
    token: str

    @property
    def path(self) -> str:
        return f"/accounts/setup/{self.uid}/{self.token}/"


def setup_link(user: User) -> SetupLink:
    return SetupLink(
        user, urlsafe_base64_encode(force_bytes(user.pk)), setup_tokens.make_token(user)
    )


def account_of_link(uid: str) -> User | None:
    """The account a set-up link's ``uid`` names, or None."""
    try:
        return User.objects.get(pk=int(force_str(urlsafe_base64_decode(uid))))
    except (ValueError, TypeError, OverflowError, User.DoesNotExist):
        return None


def issue_link(user: User, by: User) -> SetupLink:
    audit_record(
        actor=by,
        action=AuditAction.STAFF_SETUP_LINK_ISSUED,
        target=user,
        payload={"username": user.username},
    )
    return setup_link(user)


@transaction.atomic
def setup_link_reissue(*, user: User, by: User) -> SetupLink:
    """A fresh link for an account whose person has not set it up (the first one expired):
    by an administrator, or by one of its makers. Earlier links stop working."""
    require_role(by, FLOOR_SUPERVISOR, ADMINISTRATOR, action="issue set-up links")
    user = User.objects.select_for_update().get(pk=user.pk)
    profile = StaffProfile.objects.filter(user=user).first()
    if profile is None or profile.set_up_at is not None:
        raise Conflict(f"{person_name(user)} has set up the account already.", field="user")
    made_by = StaffLineage.objects.filter(account=user, maker=by).exists()
    if role_of(by) != ADMINISTRATOR and not made_by:
        raise PermissionDenied(
            "A set-up link is issued by an administrator or the account's maker."
        )
    user.set_unusable_password()  # a new hash: the earlier links no longer match
    user.save(update_fields=["password"])
    return issue_link(user, by)


@transaction.atomic
def account_set_up(*, user: User, token: str, password: str, pin: str = "") -> User:
    """The account's own person chooses its password (and, if they like, a signing PIN)
    through the one-time link."""
    user = User.objects.select_for_update().get(pk=user.pk)
    profile = StaffProfile.objects.select_for_update().filter(user=user).first()
    if (
        profile is None
        or profile.set_up_at is not None
        or not setup_tokens.check_token(user, token)
    ):
        raise DomainError(
            "This set-up link has been used or has expired: ask for a new one.", field="token"
        )
    try:
        validate_password(password, user)
    except ValidationError as error:
        raise DomainError(" ".join(error.messages), field="password") from None
    if pin:
        check_pin(pin)
    user.set_password(password)
    user.save(update_fields=["password"])
    profile.set_up_at, profile.password_change_due = timezone.now(), False
    profile.save(update_fields=["set_up_at", "password_change_due"])
    audit_record(
        actor=user,
        action=AuditAction.STAFF_SET_UP,
        target=user,
        payload={"username": user.username},
    )
    if pin:
        pin_set(user=user, password=password, pin=pin, by=user)
    return user


@transaction.atomic
def password_changed(*, user: User) -> None:
    """The person changed their own password (the password-change screen): no change is due."""
    StaffProfile.objects.filter(user=user).update(password_change_due=False)
    audit_record(
        actor=user,
        action=AuditAction.STAFF_PASSWORD_CHANGED,
        target=user,
        payload={"username": user.username},
    )


def password_change_due(user: User) -> bool:
    return StaffProfile.objects.filter(user=user, password_change_due=True).exists()
