"""Middleware of the project, first in MIDDLEWARE: the client's real address behind the TLS
proxy, and a request id for the logs.

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
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

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
