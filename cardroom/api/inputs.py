"""Input serializers refuse what they do not know: a misspelt key (``flush_bonuss``) is a 422
naming it, never silently dropped with the wager placed without its bonus; and a list or an
object longer than its field allows is refused by its length, before any of its elements is
looked at (a body of a million spots is refused at once, not after a million checks)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rest_framework import exceptions, serializers

from core.inputs import ASCII_DIGITS_MESSAGE, ascii_digits

#: The most elements a list or object in a body may have when its field names no
#: ``max_length`` (a free JSON value: a table's settings, a paytable's lines).
MAX_ITEMS = 100


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


def refuse_too_long(field: serializers.Field, data: object, path: str) -> None:
    """A list or object longer than ``field`` takes is refused naming ``path``, by its length
    alone (DRF's ListField would check every element first, and only then the length)."""
    if not isinstance(data, list | Mapping):
        return
    limit = getattr(field, "max_length", None) or MAX_ITEMS
    if len(data) > limit:
        kind = "list" if isinstance(data, list) else "object"
        message = f"This {kind} has {len(data)} elements; at most {limit} are taken."
        raise exceptions.ValidationError(
            {path or "non_field_errors": [exceptions.ErrorDetail(message, code="max_length")]}
        )


def _items(field: serializers.Field, data: object, path: str) -> list[tuple[Any, object, str]]:
    """The children of a list or a dict of nested inputs, each with its JSON path."""
    child = getattr(field, "child", None)
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        if isinstance(data, list):
            return [(child, item, f"{path}[{index}]") for index, item in enumerate(data)]
    elif isinstance(field, serializers.DictField) and isinstance(data, Mapping):
        return [(child, item, f"{path}.{key}") for key, item in data.items()]
    return []


CONTAINERS = (
    serializers.ListSerializer,
    serializers.ListField,
    serializers.DictField,
    serializers.JSONField,
)


#: Fields that read a number or a date from text: DRF's would read "٥" as 5.
WRITTEN_IN_DIGITS = (
    serializers.IntegerField,
    serializers.DecimalField,
    serializers.FloatField,
    serializers.DateField,
    serializers.DateTimeField,
    serializers.TimeField,
    serializers.DurationField,
    serializers.PrimaryKeyRelatedField,
)


def refuse_non_ascii_digits(data: object, path: str) -> None:
    if isinstance(data, str) and not ascii_digits(data):
        raise exceptions.ValidationError(
            {path: [exceptions.ErrorDetail(ASCII_DIGITS_MESSAGE, code="ascii_digits")]}
        )


def _check_nested(serializer: serializers.Field, data: object, path: str) -> None:
    if isinstance(serializer, CONTAINERS):
        refuse_too_long(serializer, data, path)
        for child, item, at in _items(serializer, data, path):
            _check_nested(child, item, at)
        return
    if isinstance(serializer, WRITTEN_IN_DIGITS):
        refuse_non_ascii_digits(data, path)
        return
    if not isinstance(serializer, serializers.Serializer):
        return
    writable = {name: field for name, field in serializer.fields.items() if not field.read_only}
    refuse_unknown_keys(data, writable, path)
    if isinstance(data, Mapping):
        for name, field in writable.items():
            if name in data:
                _check_nested(field, data[name], f"{path}.{name}" if path else name)


class StrictSerializer(serializers.Serializer):
    """The base of every input serializer: unknown keys, lists or objects longer than their
    field takes, and numbers or dates written with other digits than ASCII's, at any depth of
    nested serializers, are refused before anything is validated."""

    def run_validation(self, data: Any = serializers.empty) -> Any:
        if self.parent is None and data is not serializers.empty:
            _check_nested(self, data, "")
        return super().run_validation(data)
