"""Input serializers refuse what they do not know: a misspelt key (``flush_bonuss``) is a 422
naming it, never silently dropped with the wager placed without its bonus (issue: hardening
item 10)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rest_framework import exceptions, serializers


class UnknownField(exceptions.APIException):
    """A key the endpoint does not take (HTTP 422, the key's JSON path as the field)."""

    status_code = 422
    default_code = "unknown_field"

    def __init__(self, path: str, known: Iterable[str]) -> None:
        name = path.rsplit(".", 1)[-1]
        expected = ", ".join(sorted(known)) or "no fields"
        message = f"Unknown field '{name}'; this takes {expected}."
        super().__init__({path: [exceptions.ErrorDetail(message, code=self.default_code)]})


def refuse_unknown_keys(data: object, known: Iterable[str], path: str = "") -> None:
    """Raise UnknownField for the first key of ``data`` (a JSON object or a form) that is not
    in ``known``."""
    if not isinstance(data, Mapping):  # a JSON object, or a form's QueryDict (a dict)
        return  # not an object: the serializer says what it expected
    known = list(known)
    for key in data:
        if key not in known:
            raise UnknownField(f"{path}.{key}" if path else str(key), known)


def _items(field: serializers.Field, data: object, path: str) -> list[tuple[Any, object, str]]:
    """The children of a list or a dict of nested inputs, each with its JSON path."""
    child = getattr(field, "child", None)
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        if isinstance(data, list):
            return [(child, item, f"{path}[{index}]") for index, item in enumerate(data)]
    elif isinstance(field, serializers.DictField) and isinstance(data, Mapping):
        return [(child, item, f"{path}.{key}") for key, item in data.items()]
    return []


NESTED = (serializers.BaseSerializer, serializers.ListField, serializers.DictField)


def _check_nested(serializer: serializers.Field, data: object, path: str) -> None:
    if isinstance(
        serializer, serializers.ListSerializer | serializers.ListField | serializers.DictField
    ):
        for child, item, at in _items(serializer, data, path):
            _check_nested(child, item, at)
        return
    if not isinstance(serializer, serializers.Serializer):
        return
    writable = {name: field for name, field in serializer.fields.items() if not field.read_only}
    refuse_unknown_keys(data, writable, path)
    if isinstance(data, Mapping):
        for name, field in writable.items():
            if name in data and isinstance(field, NESTED):
                _check_nested(field, data[name], f"{path}.{name}" if path else name)


class StrictSerializer(serializers.Serializer):
    """The base of every input serializer: unknown keys, at any depth of nested serializers,
    are refused before anything is validated."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        if self.parent is None and data is not serializers.empty:
            _check_nested(self, data, "")
        return super().run_validation(data)
