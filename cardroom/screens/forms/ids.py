"""Ids of their own for forms that share a page: two forms with a ``kind`` field gave two
``id_kind`` elements, and a tap on one form's label landed in the other's field."""

from __future__ import annotations

from typing import Any


class OwnIds:
    """The form's fields get ids ``id_<ids>_<field>``; their names stay as they are."""

    ids: str = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", f"id_{self.ids}_%s")
        super().__init__(*args, **kwargs)


def form_for_row(form: Any, row: object) -> Any:
    """The same form (its data and errors) with ids of one row's own, for a form a page shows
    once per row (a follow-up under each incident): ``id_<ids><row>_<field>``."""
    copy = form.__class__.__new__(form.__class__)
    copy.__dict__ = dict(form.__dict__)
    copy.auto_id = f"id_{getattr(form, 'ids', 'form')}{row}_%s"
    copy._bound_fields_cache = {}
    return copy
