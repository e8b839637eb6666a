"""A password change or a deactivation ends every way in that the user held: their device
tokens are revoked and their sessions deleted (hardening item 14). Whoever changes the
password (the admin, ``changepassword``, a form) goes through ``User.save``, so this is where
it is seen."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.utils import timezone
from knox.models import AuthToken

_WAS = "_cardroom_credentials_were"


@receiver(pre_save, sender=User)
def _remember_credentials(sender: type[User], instance: User, **kwargs: Any) -> None:
    if instance.pk is None or kwargs.get("raw"):
        return
    before = User.objects.filter(pk=instance.pk).values("password", "is_active").first()
    setattr(instance, _WAS, before)


@receiver(post_save, sender=User)
def _revoke_on_password_change_or_deactivation(
    sender: type[User], instance: User, created: bool, **kwargs: Any
) -> None:
    before = getattr(instance, _WAS, None)
    if created or before is None:
        return
    setattr(instance, _WAS, None)
    changed = before["password"] != instance.password
    deactivated = before["is_active"] and not instance.is_active
    if changed or deactivated:
        revoke_everything(instance)


def revoke_everything(user: User) -> None:
    """Every token and every session of the user, gone."""
    AuthToken.objects.filter(user=user).delete()
    key = str(user.pk)
    sessions = Session.objects.filter(expire_date__gt=timezone.now())
    doomed = [
        session.session_key
        for session in sessions.iterator(chunk_size=500)
        if str(session.get_decoded().get("_auth_user_id")) == key
    ]
    Session.objects.filter(session_key__in=doomed).delete()
