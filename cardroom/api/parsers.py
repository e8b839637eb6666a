"""The JSON parser the API reads bodies with: DRF's, refusing what would crash it later."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

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
            json.dumps(data, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            raise ParseError("JSON parse error - a string has a lone surrogate.") from None
        return data


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
