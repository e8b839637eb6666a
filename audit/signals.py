"""Logins, logouts and failed logins go into the audit log like every other state change."""

from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db import transaction
from django.dispatch import receiver

from .actions import AuditAction
from .services import audit_record


@receiver(user_logged_in)
def _logged_in(sender, request, user, **kwargs):
    with transaction.atomic():
        audit_record(actor=user, action=AuditAction.AUTH_LOGIN, payload=_where(request))


@receiver(user_logged_out)
def _logged_out(sender, request, user, **kwargs):
    if user is not None:
        with transaction.atomic():
            audit_record(actor=user, action=AuditAction.AUTH_LOGOUT, payload=_where(request))


@receiver(user_login_failed)
def _login_failed(sender, credentials, request=None, **kwargs):
    # Never the password: only who was tried, and from where.
    with transaction.atomic():
        audit_record(
            actor=None,
            action=AuditAction.AUTH_LOGIN_FAILED,
            payload={"username": str(credentials.get("username", ""))[:150], **_where(request)},
        )


def _where(request) -> dict:
    if request is None:
        return {}
    return {"ip": request.META.get("REMOTE_ADDR", "")}
