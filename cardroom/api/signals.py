"""A password change or a deactivation ends every way in that the user held: their device
tokens are revoked and their sessions deleted. Whoever changes the
password (the admin, ``changepassword``, a form) goes through ``User.save``, so this is where
it is seen."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, User
from django.contrib.sessions.models import Session
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver
from django.utils import timezone
from knox.models import AuthToken

from tables.models import CardroomMembership

from .tokens import CACHED_USER_FIELDS, forget_roles, forget_roles_of

_WAS = "_cardroom_credentials_were"


@receiver(pre_save, sender=User)
def _remember_credentials(sender: type[User], instance: User, **kwargs: Any) -> None:
    if instance.pk is None or kwargs.get("raw"):
        return
    before = User.objects.filter(pk=instance.pk).values("password", *CACHED_USER_FIELDS).first()
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
    elif any(before[name] != getattr(instance, name) for name in CACHED_USER_FIELDS):
        forget_roles_of([instance.pk])  # renamed, or its flags changed: not as cached


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


# --- the roles cached per token (cardroom.api.tokens) are forgotten when they may change ------


@receiver(m2m_changed, sender=User.groups.through)
def _forget_roles_on_group_change(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: set[int] | None, **kwargs: Any
) -> None:
    """A user's groups changed (``user.groups.add``) or a group's users (``group.user_set``):
    after the change, and before a clear (after it, nobody knows who was in the group)."""
    if action not in ("post_add", "post_remove", "pre_clear", "post_clear"):
        return
    if not reverse:  # instance is the user
        forget_roles_of([instance.pk])
    elif action == "pre_clear":
        forget_roles_of(instance.user_set.values_list("pk", flat=True))
    elif pk_set:
        forget_roles_of(pk_set)


@receiver(post_save, sender=Group)
@receiver(pre_delete, sender=Group)
def _forget_roles_of_a_group(sender: Any, instance: Group, **kwargs: Any) -> None:
    """A role group renamed or deleted: its users' roles may change."""
    if instance.pk is not None:
        forget_roles_of(instance.user_set.values_list("pk", flat=True))


@receiver(post_delete, sender=AuthToken)
def _forget_role_of_a_token(sender: Any, instance: AuthToken, **kwargs: Any) -> None:
    """A token revoked, expired or dropped: its cached role goes with it."""
    forget_roles([instance.digest])


@receiver(post_save, sender=CardroomMembership)
@receiver(post_delete, sender=CardroomMembership)
def _forget_cardrooms_of_a_member(sender: Any, instance: CardroomMembership, **kwargs: Any) -> None:
    """A cardroom granted or withdrawn: the cached entry holds the person's cardrooms."""
    forget_roles_of([instance.user_id])
