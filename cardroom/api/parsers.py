"""The JSON parser the API reads bodies with: DRF's, refusing what would crash it later: a
body over the limit (DATA_UPLOAD_MAX_MEMORY_SIZE, set once in the settings), nested too deep,
with a lone surrogate or with a NUL character in any key or string."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework.exceptions import ErrorDetail, ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from core.inputs import NUL, nul_message

MAX_DEPTH = 32  # a round in the settle-json format is 4 levels deep


class BoundedJSONParser(JSONParser):
    """JSON, at most DATA_UPLOAD_MAX_MEMORY_SIZE bytes (a larger body is a 400, as Django
    answers for forms) and at most MAX_DEPTH levels of arrays and objects deep. A deeper body
    is a 400: the standard library's decoder (and every recursive walk after it) would
    otherwise run out of stack on a body like ``[[[[…`` and answer 500."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None:  # Django checks form bodies against it; JSON ones here
            raw = stream.read(limit + 1)
            if len(raw) > limit:
                raise RequestDataTooBig("The request body is larger than this server accepts.")
            stream = io.BytesIO(raw)
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply.") from None
        if _depth_exceeds(data, MAX_DEPTH):
            raise ParseError(f"JSON parse error - the body is nested more than {MAX_DEPTH} deep.")
        try:  # "\ud800" parses, but is no Unicode text: echoed in an error it would be a 500
            text = json.dumps(data, ensure_ascii=False)
            text.encode()
        except UnicodeEncodeError:
            raise ParseError("JSON parse error - a string has a lone surrogate.") from None
        if "\\u0000" in text and (where := _nul_path(data)) is not None:
            raise NulInBody(where)
        return data


class NulInBody(ParseError):
    """A JSON string (or key) holding ``\\u0000``: a 400 naming its path."""

    default_code = "nul_character"

    def __init__(self, path: str) -> None:
        detail = {path or "non_field_errors": [ErrorDetail(nul_message(path), self.default_code)]}
        super().__init__(detail, self.default_code)


def _nul_path(data: Any) -> str | None:
    """The JSON path of the first key or string holding a NUL, without recursion."""
    pending: list[tuple[str, Any]] = [("", data)]
    while pending:
        path, item = pending.pop()
        if isinstance(item, str) and NUL in item:
            return path
        if isinstance(item, dict):
            for key, value in item.items():
                at = f"{path}.{key}" if path else key
                if NUL in key:
                    return at.replace(NUL, "\\u0000")
                pending.append((at, value))
        elif isinstance(item, list):
            pending.extend((f"{path}[{index}]", value) for index, value in enumerate(item))
    return None


def _depth_exceeds(data: Any, limit: int) -> bool:
    """Whether ``data`` nests arrays and objects more than ``limit`` deep (without recursion)."""
    level = [data]
    for _ in range(limit):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
        ]
        if not level:
            return False
    return any(isinstance(item, dict | list) for item in level)


PARSERS = [BoundedJSONParser, FormParser, MultiPartParser]
