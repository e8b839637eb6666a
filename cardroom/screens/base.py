"""What the server-rendered screens share: role checks, the one way a screen's POST actions
are dispatched, and services called from forms.

A screen view parses a Django form, calls one service, and shows the domain error next to
the field it names — the same errors the API answers with. Something that is not there (an
unknown action, a missing object) is a 404 raised as ``Http404`` and rendered by Django's
handler (``templates/404.html``), never a page of the view's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, Generic, TypeVar

from django import forms
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django_htmx.middleware import HtmxDetails

from audit.services import audit_refusal
from core.errors import DomainError, PermissionDenied
from core.roles import role_of
from patrons.models import Cardroom

from .confirmation import Sentence, confirm_first

H = TypeVar("H", bound=Callable[..., Any])


class SignedInRequest(HttpRequest):
    """A request ``role_required`` let through (for type checking only): its user is signed
    in and holds one of the view's roles; django-htmx tells whether htmx sent it."""

    user: User
    htmx: HtmxDetails


def role_required(
    *roles: str,
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """Deny by default: anonymous users go to the login page; other roles get a 403 page,
    and the refusal is written to the audit log. The screen renders in the cardroom's time
    zone: every time it shows, and every date and time a form reads, is local."""

    def decorate(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if role_of(request.user) not in roles:
                message = "Your role does not allow this screen."
                audit_refusal(
                    actor=request.user, attempted=f"screen {request.path}", message=message
                )
                return render(request, "403.html", {"message": message}, status=403)
            with timezone.override(cardroom_zone()):
                return view(request, *args, **kwargs)

        return wrapper

    return decorate


def cardroom_zone() -> str:
    """The cardroom's time zone (an IANA name); the project's (UTC) before one exists. A
    cardroom system runs one cardroom: the first one's zone is the screens' zone."""
    zone = Cardroom.objects.order_by("pk").values_list("time_zone", flat=True).first()
    return zone or timezone.get_default_timezone_name()


def call_service(
    request: HttpRequest,
    form: forms.Form,
    call: Callable[[], Any],
    *,
    fields: Mapping[str, str | None] | None = None,
) -> Any:
    """Run ``call``; a DomainError becomes a form error next to the field it names (or at the
    top of the form), and its reason shows at the top of the page. ``fields`` maps a service's
    field names to the form's. A refused permission is also written to the audit log (the
    refused change rolled back); one that names a field (a signature refused) is shown next to
    it too."""
    try:
        return call()
    except DomainError as error:
        if isinstance(error, PermissionDenied):
            audit_refusal(
                actor=request.user, attempted=f"screen {request.path}", message=error.message
            )
        field = (fields or {}).get(error.field or "", error.field)
        form.add_error(field if field in form.fields else None, error.message)
        refused(request, error.message)
    return None


def refused(request: HttpRequest, message: str) -> None:
    """Keep a refusal's reason for the top of the page (``{% refusal %}`` in base.html): a
    refusal naming a hidden field (a day close's gaming day) would otherwise show nowhere."""
    reasons: list[str] = getattr(request, "refusals", [])
    if message not in reasons:
        reasons.append(message)
    request.refusals = reasons  # type: ignore[attr-defined]


class Actions(Generic[H]):
    """A screen's POST actions by name (the ``<action>`` of its URL): each handler registers
    under its names with ``@actions("name", ...)``; ``actions.handler(name)`` gives it back,
    and an unknown name is a 404. Every screen with actions dispatches through one of these.
    An action that closes, voids or signs says what it will do and asks first:
    ``@actions("close", confirm=sentence)`` (``screens.confirmation``)."""

    def __init__(self, unknown: str = "No such action.") -> None:
        self._handlers: dict[str, H] = {}
        self._unknown = unknown

    def __call__(self, *names: str, confirm: Sentence | None = None) -> Callable[[H], H]:
        def register(handler: H) -> H:
            registered = handler if confirm is None else confirm_first(confirm)(handler)
            for name in names:
                self._handlers[name] = registered
            return handler

        return register

    def __contains__(self, name: object) -> bool:
        return name in self._handlers

    def handler(self, name: str) -> H:
        try:
            return self._handlers[name]
        except KeyError:
            raise Http404(self._unknown) from None


def working_cardroom() -> Cardroom | None:
    """The cardroom this screen works in: the one its person chose among theirs (the request
    is scoped to it alone, ``cardroom.cardroom_scope``), or None before any exists."""
    return Cardroom.objects.order_by("pk").first()
