"""Logins, logouts and failed logins go into the audit log like every other state change."""

from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db import transaction
from django.dispatch import receiver
from django.http import HttpRequest

from .actions import AuditAction
from .services import audit_record


@receiver(user_logged_in)
def _logged_in(sender: type, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    with transaction.atomic():
        audit_record(actor=user, action=AuditAction.AUTH_LOGIN, payload=_where(request))


@receiver(user_logged_out)
def _logged_out(
    sender: type, request: HttpRequest | None, user: User | None, **kwargs: Any
) -> None:
    if user is not None:
        with transaction.atomic():
            audit_record(actor=user, action=AuditAction.AUTH_LOGOUT, payload=_where(request))


@receiver(user_login_failed)
def _login_failed(
    sender: str, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    # Never the password: only who was tried, and from where.
    with transaction.atomic():
        audit_record(
            actor=None,
            action=AuditAction.AUTH_LOGIN_FAILED,
            payload={"username": str(credentials.get("username", ""))[:150], **_where(request)},
        )


def _where(request: HttpRequest | None) -> dict[str, str]:
    if request is None:
        return {}
    return {"ip": request.META.get("REMOTE_ADDR", "")}
