"""Signatures (design.md 8): a control's person signs by authenticating at that moment, on the
device in use, with their password or their personal PIN — never by being picked from a list.

A service that asks for a signature verifies it inside its transaction (``signature_verify``)
and keeps it on its record (``signature_record``). Wrong secrets count like a login's failures
(``AXES_FAILURE_LIMIT`` in a row lock the signer out for a cool-off that doubles with each
further failure); the count is written after the refused transaction has rolled back, by the
``signing`` decorator around the service.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import wraps
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import DomainError, PermissionDenied
from core.people import person_name
from core.roles import role_of

from .staff_models import Signature, StaffProfile

P = ParamSpec("P")
R = TypeVar("R")

PIN_PATTERN = re.compile(r"[0-9]{4,12}")


@dataclass(frozen=True)
class SigningDevice:
    """Where a signature is given: a digest of the session or device token, and the device
    (its browser or client and address)."""

    session: str = ""
    device: str = ""


@dataclass(frozen=True)
class SignatureInput:
    """What a person types to sign: who they are and their password or PIN."""

    username: str
    secret: str = field(repr=False)
    device: SigningDevice = SigningDevice()


@dataclass(frozen=True)
class Signed:
    """A signature verified just now, not yet kept on a record."""

    signer: User
    capacity: str
    method: str
    device: SigningDevice
    at: datetime


class SignatureRefused(PermissionDenied):
    """The person did not authenticate: an unknown name, a wrong secret, a lockout. ``failed``
    is the account whose failure counts (None when nothing is counted)."""

    code = "signature_refused"

    def __init__(self, message: str, *, field: str, failed: User | None = None) -> None:
        super().__init__(message, field=field)
        self.failed = failed
        self.counted = False


def profile_of(user: User) -> StaffProfile | None:
    return StaffProfile.objects.filter(user=user).first()


def signature_verify(
    entry: SignatureInput | None,
    *,
    capacity: str,
    roles: tuple[str, ...],
    field: str,
    signer: User | None = None,
    signed_already: Iterable[User] = (),
) -> Signed:
    """The person of ``entry`` authenticates now, for ``capacity`` on a record. ``signer``:
    the person who must sign (an approver signs as themselves); ``signed_already``: who is on
    the record already (one person never signs a record twice). Refusals name ``field``."""
    user = _person(entry, field=field, signer=signer, signed_already=signed_already)
    assert entry is not None
    profile = profile_of(user)
    _require_able_to_sign(user, profile, field=field)
    method = _method(user, profile, entry.secret)
    if method is None:
        raise SignatureRefused("That username, password or PIN is wrong.", field=field, failed=user)
    if role_of(user) not in roles:
        allowed = " or ".join(role.lower() for role in roles)
        raise DomainError(f"{person_name(user)} is not a {allowed}: cannot sign.", field=field)
    if profile and profile.signing_failures:
        StaffProfile.objects.filter(pk=profile.pk).update(
            signing_failures=0, signing_locked_until=None
        )
    return Signed(user, capacity, method, entry.device, timezone.now())


def _person(
    entry: SignatureInput | None,
    *,
    field: str,
    signer: User | None,
    signed_already: Iterable[User],
) -> User:
    """Who says they sign: an active account, the one asked for, not on the record yet."""
    if entry is None or not entry.username.strip():
        raise DomainError("Sign: your username and your password or PIN.", field=field)
    if not entry.secret:
        raise DomainError("Sign with the password or PIN of the person signing.", field=field)
    user = User.objects.filter(username=entry.username.strip()).first()
    if user is None or not user.is_active:
        raise SignatureRefused("That username, password or PIN is wrong.", field=field)
    if signer is not None and user.pk != signer.pk:
        raise SignatureRefused(f"Sign as yourself, {person_name(signer)}.", field=field)
    if any(user.pk == other.pk for other in signed_already):
        raise DomainError(
            f"{person_name(user)} is on this record already: another person signs.", field=field
        )
    return user


def _require_able_to_sign(user: User, profile: StaffProfile | None, *, field: str) -> None:
    """Not locked out by earlier failures, and set up by its own person."""
    now = timezone.now()
    if profile and profile.signing_locked_until and profile.signing_locked_until > now:
        minutes = -(-(profile.signing_locked_until - now) // timedelta(minutes=1))
        raise SignatureRefused(
            f"Too many wrong passwords or PINs: {person_name(user)} can sign again in "
            f"{minutes} minute{'s' if minutes != 1 else ''}.",
            field=field,
        )
    if profile and profile.set_up_at is None:
        raise SignatureRefused(
            f"{person_name(user)} has not set up the account yet: it cannot sign.", field=field
        )


def _method(user: User, profile: StaffProfile | None, secret: str) -> str | None:
    if profile and profile.pin and check_password(secret, profile.pin):
        return Signature.Method.PIN
    if user.check_password(secret):
        return Signature.Method.PASSWORD
    return None


def signature_record(record: Model, signed: Signed) -> Signature:
    """Keep a verified signature on its record (inside the record's transaction)."""
    return Signature.objects.create(
        signer=signed.signer,
        capacity=signed.capacity,
        record_type=record._meta.label_lower,
        record_id=record.pk,
        method=signed.method,
        signed_at=signed.at,
        session=signed.device.session[:64],
        device=signed.device.device[:200],
    )


def signatures_of(record: Model) -> list[Signature]:
    return list(
        Signature.objects.filter(
            record_type=record._meta.label_lower, record_id=record.pk
        ).select_related("signer")
    )


def signing(service: Callable[P, R]) -> Callable[P, R]:
    """Around a service that verifies signatures: a wrong secret's failure is counted once the
    refused transaction has rolled back, and the refusal raised on."""

    @wraps(service)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return service(*args, **kwargs)
        except SignatureRefused as refusal:
            if refusal.failed is not None and not refusal.counted:
                refusal.counted = True
                _count_failure(refusal.failed, refusal.field or "")
            raise

    return wrapper


@transaction.atomic
def _count_failure(user: User, field: str) -> None:
    profile, _ = StaffProfile.objects.select_for_update().get_or_create(
        user=user, defaults={"set_up_at": user.date_joined}
    )
    profile.signing_failures += 1
    limit: int = settings.AXES_FAILURE_LIMIT
    if profile.signing_failures >= limit:
        first: timedelta = settings.LOGIN_BACKOFF_FIRST
        most: timedelta = settings.LOGIN_BACKOFF_MOST
        beyond = min(profile.signing_failures - limit, 20)
        profile.signing_locked_until = timezone.now() + min(first * 2**beyond, most)
    profile.save(update_fields=["signing_failures", "signing_locked_until"])
    audit_record(
        actor=None,
        action=AuditAction.SIGNATURE_FAILED,
        target=user,
        payload={
            "username": user.get_username(),
            "field": field,
            "failures": profile.signing_failures,
            "locked_until": profile.signing_locked_until,
        },
    )


@transaction.atomic
def pin_set(*, user: User, password: str, pin: str, by: User) -> StaffProfile:
    """A person sets their own signing PIN, confirming it with their password: 4 to 12 digits,
    not one digit repeated nor a straight run (1234, 9876)."""
    if by.pk != user.pk:
        raise PermissionDenied("A PIN is set by its own person only.")
    if not user.check_password(password):
        raise DomainError("Your password is wrong.", field="password")
    check_pin(pin)
    profile, _ = StaffProfile.objects.select_for_update().get_or_create(
        user=user, defaults={"set_up_at": user.date_joined}
    )
    profile.pin, profile.pin_set_at = make_password(pin), timezone.now()
    profile.save(update_fields=["pin", "pin_set_at"])
    audit_record(
        actor=by, action=AuditAction.STAFF_PIN_SET, target=user, payload={"username": user.username}
    )
    return profile


def check_pin(pin: str) -> None:
    if not PIN_PATTERN.fullmatch(pin):
        raise DomainError("A PIN is 4 to 12 digits (0–9).", field="pin")
    steps = {int(b) - int(a) for a, b in zip(pin, pin[1:], strict=False)}
    if len(set(pin)) == 1 or steps in ({1}, {-1}):
        raise DomainError(
            "Choose a PIN that is not one digit repeated nor a straight run.", field="pin"
        )
