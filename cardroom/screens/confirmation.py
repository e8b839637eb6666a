"""Every close asks first and says what it will do (a closing count, a shift or day close, a
void, a signature, a table close): "Closes Table 2 and cashes out 3 seated players, $1,355.00 in
all".

Without JavaScript the first POST answers a confirmation page: the sentence, the form's fields
sealed into one hidden field, and a Confirm button that posts them again with ``confirmed=1``.
With JavaScript, ``static/confirm.js`` asks the same with the browser's dialog and posts
``confirmed=1`` itself. A screen declares its sentence where it declares the action:
``@table_actions("close", confirm=sentences.table_close)``, or ``@confirm_first(...)`` on a view.

The fields hold passwords and PINs (a signature is typed with the form), so the seal encrypts
them (Fernet, a key derived from SECRET_KEY), binds them to the person and the URL, and expires
after a few minutes: nothing typed is readable in the page, nor usable by anyone else.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.http import HttpRequest, QueryDict
from django.http.response import HttpResponseBase
from django.shortcuts import render

H = TypeVar("H", bound=Callable[..., HttpResponseBase])
#: What a screen says an action will do, from the request as posted (and the view's objects);
#: ``None`` only when the form is not valid: the action then refuses with its errors, unasked.
Sentence = Callable[..., str | None]

SEALED = "sealed"
CONFIRMED = "confirmed"
#: Long enough to read the sentence and tap Confirm; a confirmation left open longer asks again.
SEAL_SECONDS = 600
#: Fields never carried: the CSRF token is the page's own, the rest are this module's.
NOT_SEALED = frozenset({"csrfmiddlewaretoken", SEALED, CONFIRMED})


def _fernet() -> Fernet:
    digest = hashlib.sha256(f"cardroom.screens.confirmation:{settings.SECRET_KEY}".encode())
    return Fernet(base64.urlsafe_b64encode(digest.digest()))


def _binding(request: HttpRequest) -> str:
    return f"{request.user.pk}:{request.path}"


def seal(request: HttpRequest) -> str:
    """The posted fields (every value of each), encrypted and bound to this person and URL."""
    fields = {k: request.POST.getlist(k) for k in request.POST if k not in NOT_SEALED}
    payload = json.dumps({"for": _binding(request), "fields": fields})
    return _fernet().encrypt(payload.encode()).decode()


def unseal(request: HttpRequest, token: str) -> QueryDict | None:
    """The fields sealed by ``seal`` for this person and URL; None when tampered, expired or
    sealed for someone or somewhere else."""
    try:
        payload = json.loads(_fernet().decrypt(token.encode(), ttl=SEAL_SECONDS))
    except (InvalidToken, ValueError):
        return None
    if not isinstance(payload, dict) or payload.get("for") != _binding(request):
        return None
    fields = QueryDict(mutable=True)
    for key, values in payload.get("fields", {}).items():
        fields.setlist(key, [str(v) for v in values])
    fields[CONFIRMED] = "1"
    fields._mutable = False
    return fields


def ask(request: HttpRequest, sentence: str) -> HttpResponseBase:
    """The confirmation page: what the action will do, Confirm (the same POST, sealed) or go
    back to the screen it came from."""
    context = {
        "sentence": sentence,
        "sealed": seal(request),
        "action": request.get_full_path(),
        "back": _same_site_referer(request),
    }
    return render(request, "confirm.html", context)


def _same_site_referer(request: HttpRequest) -> str:
    referer = request.META.get("HTTP_REFERER", "")
    host = request.get_host()
    return referer if referer.split("/")[2:3] == [host] else "/"


def confirm_first(sentence: Sentence) -> Callable[[H], H]:
    """The view (or action handler) runs only once the person has confirmed the sentence."""

    def decorate(view: H) -> H:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.POST.get(CONFIRMED) == "1":
                token = request.POST.get(SEALED)
                if token is not None:
                    fields = unseal(request, token)
                    if fields is None:
                        return render(request, "confirm.html", {"expired": True}, status=400)
                    request.POST = fields  # type: ignore[assignment]
                return view(request, *args, **kwargs)
            said = sentence(request, *args, **kwargs)
            if said is None:  # the form is not valid: the view refuses with its errors
                return view(request, *args, **kwargs)
            return ask(request, said)

        wrapper.confirms = sentence  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
