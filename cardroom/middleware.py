"""Middleware of the project, first in MIDDLEWARE: the client's real address behind the TLS
proxy, a request id for the logs, and no NUL character in what a request sends.

``TrustedProxyMiddleware``: behind ``TRUSTED_PROXY_COUNT`` reverse proxies, each appending the
address it received the request from to ``X-Forwarded-For``, the client's address is that
many entries from the right; anything further left was written by the client and is not
trusted. It becomes ``REMOTE_ADDR``, which django-axes' throttling, the audit log's login
records and the logs all read. With no proxy (0, the default outside production) the header
is ignored: anybody could write it.

``RequestIdMiddleware`` takes the request id from the ``X-Request-ID`` header a proxy sets (or
makes one), keeps it for the log lines written while the request runs, and returns it in the
response's ``X-Request-ID`` header, so that a complaint ("the settle failed, request id …")
leads to its log lines.
"""

from __future__ import annotations

import ipaddress
import re
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from core.inputs import NUL, NulCharacter

from .logs import reset_request_id, set_request_id

HEADER = "X-Request-ID"
#: A proxy's id is kept if it is short and plain; anything else is replaced by our own.
_ACCEPTABLE = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")

Handler = Callable[[HttpRequest], HttpResponse]


def client_address(meta: dict, proxies: int) -> str | None:
    """The client's address as the trusted proxies saw it, or None if the request did not come
    through as many proxies as configured (then REMOTE_ADDR stays what it is)."""
    if proxies <= 0:
        return None
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    if len(hops) < proxies:
        return None
    candidate = hops[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None


class TrustedProxyMiddleware:
    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        address = client_address(request.META, settings.TRUSTED_PROXY_COUNT)
        if address is not None:
            request.META["cardroom.proxy_addr"] = request.META.get("REMOTE_ADDR", "")
            request.META["REMOTE_ADDR"] = address
        return self.get_response(request)


class RequestIdMiddleware:
    """First in MIDDLEWARE, so that every later log line of the request carries the id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(HEADER, "")
        request_id = given if _ACCEPTABLE.fullmatch(given) else uuid.uuid4().hex
        setattr(request, "request_id", request_id)  # noqa: B010 - HttpRequest has no slot
        token = set_request_id(request_id)
        try:
            response = self.get_response(request)
        finally:
            reset_request_id(token)
        response[HEADER] = request_id
        return response


FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


class RefuseNulMiddleware:
    """A NUL character in the path, a query parameter, a form field (its name or value) or an
    uploaded file's name is refused with a 400 naming where, before any view reads it — for
    the API and the screens alike. (A JSON body's strings are checked by the API's JSON
    parser; a CSV file's cells by its import.) Raising ``NulCharacter``, a
    SuspiciousOperation, lets Django answer with the 400 handler: the API's one error shape
    under /api/, the 400 page elsewhere."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path:
            raise NulCharacter(None)
        _refuse_in(request.GET.lists())
        if request.method == "POST" and request.content_type in FORMS:
            _refuse_in(request.POST.lists())  # a form too large raises RequestDataTooBig: 400
            for name, files in request.FILES.lists():
                _refuse_in([(name, [upload.name or "" for upload in files])])
        return self.get_response(request)


def _refuse_in(fields: Iterable[tuple[str, list[Any]]]) -> None:
    for name, values in fields:
        if NUL in name or any(NUL in value for value in values if isinstance(value, str)):
            raise NulCharacter(name.replace(NUL, "\\u0000"))
