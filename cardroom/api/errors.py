"""One error shape for the whole API: ``{"error": {"code", "message", "field"}}``."""

from __future__ import annotations

import sys
from typing import Any

from axes.exceptions import AxesBackendPermissionDenied
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response

from audit.services import audit_refusal
from core import errors
from core.inputs import NulCharacter, nul_message

_DOMAIN_STATUS = {
    errors.PermissionDenied: status.HTTP_403_FORBIDDEN,
    errors.Conflict: status.HTTP_409_CONFLICT,
    errors.NotFound: status.HTTP_404_NOT_FOUND,
    errors.DomainError: status.HTTP_422_UNPROCESSABLE_ENTITY,
}


TOO_LARGE = "The request body is larger than this server accepts."


def error_response(
    status_code: int, code: str, message: str, field: str | None = None, **extra: Any
) -> Response:
    return Response(
        {"error": {"code": code, "message": message, "field": field}}, status=status_code, **extra
    )


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """DRF's exception handler, reshaped. Domain errors keep their field; a refused permission
    is written to the audit log (the refused change itself rolled back)."""
    request = context.get("request")
    answered = _not_from_drf(exc, request, context)
    if answered is not None:
        return answered
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None  # a defect: let it surface as a 500 and be logged
    headers = {}
    auth_header, wait = getattr(exc, "auth_header", None), getattr(exc, "wait", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    if wait:
        headers["Retry-After"] = str(int(wait))
    if isinstance(exc, exceptions.PermissionDenied) and request is not None:
        _record_refusal(request, context, str(exc.detail))
    field, message = _first_error(exc.detail)
    return error_response(
        exc.status_code, _first_code(exc.get_codes()), message, field, headers=headers
    )


def _not_from_drf(exc: Exception, request: Any, context: dict) -> Response | None:
    """The answer to a domain error, a lockout or a malformed request (a body too large)."""
    if isinstance(exc, errors.DomainError):
        code = next(s for kind, s in _DOMAIN_STATUS.items() if isinstance(exc, kind))
        if isinstance(exc, errors.PermissionDenied) and request is not None:
            _record_refusal(request, context, exc.message)
        return error_response(code, exc.code, exc.message, exc.field)
    if isinstance(exc, AxesBackendPermissionDenied):
        return error_response(
            status.HTTP_429_TOO_MANY_REQUESTS,
            "locked_out",
            "Too many failed logins: try again in a while.",
            "username",
        )
    if isinstance(exc, RequestDataTooBig):
        return error_response(status.HTTP_400_BAD_REQUEST, "body_too_large", TOO_LARGE)
    if isinstance(exc, NulCharacter):
        return error_response(
            status.HTTP_400_BAD_REQUEST, "nul_character", nul_message(exc.field), exc.field
        )
    if isinstance(exc, SuspiciousOperation):
        return error_response(
            status.HTTP_400_BAD_REQUEST, "bad_request", "The request is malformed."
        )
    return None


def _first_error(detail: Any, path: str = "") -> tuple[str | None, str]:
    """The first message in DRF's nested error detail, with the JSON path to its field."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(key, int):  # a ListField's errors are keyed by the item's index
                return _first_error(value, f"{path}[{key}]")
            name = None if key in ("non_field_errors", "detail") else key
            sub = f"{path}.{name}" if path and name else (name or path)
            return _first_error(value, sub)
    if isinstance(detail, list) and detail:
        first = detail[0]
        if isinstance(first, dict | list):
            index = next(i for i, item in enumerate(detail) if item)
            return _first_error(detail[index], f"{path}[{index}]")
        return path or None, str(first)
    return path or None, str(detail)


def _first_code(codes: Any) -> str:
    while isinstance(codes, dict | list):
        codes = next(iter(codes.values())) if isinstance(codes, dict) else codes[0]
    return str(codes)


def _record_refusal(request: Any, context: dict, message: str) -> None:
    user = getattr(request, "user", None)
    view = context.get("view")
    action = f"{request.method} {request.path}"
    if view is not None:
        action = f"{action} ({type(view).__name__})"
    audit_refusal(actor=user, attempted=action, message=message)


# --- errors Django answers before (or after) a view: the same shape under /api/ ----------------

API_PREFIX = "/api/"


def _json_error(
    status_code: int, code: str, message: str, field: str | None = None
) -> JsonResponse:
    error = {"code": code, "message": message, "field": field}
    return JsonResponse({"error": error}, status=status_code)


def handler400(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not request.path.startswith(API_PREFIX):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return _json_error(400, "body_too_large", TOO_LARGE)
    if isinstance(exception, NulCharacter):
        return _json_error(400, "nul_character", nul_message(exception.field), exception.field)
    return _json_error(400, "bad_request", "The request is malformed.")


def handler403(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not request.path.startswith(API_PREFIX):
        return defaults.permission_denied(request, exception)
    return _json_error(403, "permission_denied", "You may not do this.")


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not request.path.startswith(API_PREFIX):
        return defaults.page_not_found(request, exception)
    return _json_error(404, "not_found", "Not found.")


#: How long a client waits before trying again while the database does not answer.
DATABASE_RETRY_AFTER = 30  # seconds

#: The screens' answer then: plain, with nothing that needs the database to render.
DATABASE_DOWN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cardroom: try again shortly</title></head>
<body><h1>The cardroom's database is not answering</h1>
<p>This request could not be completed. Try again in a minute, checking first whether what
you entered was recorded; if this goes on, call the floor supervisor.</p></body></html>
"""


def handler500(request: HttpRequest) -> HttpResponse:
    """Django has logged the error with its traceback (``django.request``) already. The
    database unreachable (or gone mid-request) is no defect of the request: 503 with
    Retry-After, for the API and for the screens."""
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        return database_unavailable(request)
    if not request.path.startswith(API_PREFIX):
        return defaults.server_error(request)
    request_id = getattr(request, "request_id", "")
    message = "The server failed on this request; the error is logged."
    if request_id:
        message += f" Quote request id {request_id}."
    return _json_error(500, "server_error", message)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        response: HttpResponse = _json_error(
            503,
            "database_unavailable",
            f"The database is not answering: try again in {DATABASE_RETRY_AFTER} seconds.",
        )
    else:
        response = HttpResponse(DATABASE_DOWN_PAGE, status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response
