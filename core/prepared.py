"""A read that every request makes, compiled to SQL once per process instead of every time.

Django builds a query's SQL anew each time it runs: for the hand every step locks (the hand
with its table, cardroom, settings, session and DP seating: 63 columns) that compiling cost
more CPU than anything else in a step. ``PreparedRead`` compiles its queryset once per
database, with a marker in place of the key, and then runs that SQL with each call's key and
turns the rows into model instances exactly as Django's own iterator does (converters,
``Model.from_db``, the related objects of ``select_related``).

The SQL is compiled outside any request's scope (``core.scoping``); each call keeps only the
rows the request's cardrooms may reach, read from the row and the related rows it selected.

It is fenced where Django's own path would have protected the caller: a locking read
(``select_for_update``) outside a transaction raises Django's own error, and a queryset it
cannot prepare (its SQL does not carry the key as one parameter, or it annotates) is an error
when the read is first used, never a silent fall back to the ORM.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.transaction import TransactionManagementError

from . import scoping

M = TypeVar("M", bound=Model)

_MARKER = -1_730_199_142  # a key no row has (within any integer key's range): its place


class PreparedRead(Generic[M]):
    """``read = PreparedRead(lambda key: Hand.objects.select_related(...).filter(pk=key))``,
    then ``read.first(key)`` (as ``QuerySet.first``: ordered by the model's ordering, else by
    primary key; or None) or ``read.all(key)`` (every row, as the queryset orders them)."""

    def __init__(self, build: Callable[[Any], QuerySet[M]]) -> None:
        self._build = build
        self._compiled: dict[tuple[str, bool], _Compiled] = {}

    def first(self, key: Any, *, using: str = "default") -> M | None:
        rows = self._compiled_for(using, first=True).rows(key, limit=1)
        return rows[0] if rows else None  # type: ignore[return-value]

    def all(self, key: Any, *, using: str = "default") -> list[M]:
        return self._compiled_for(using, first=False).rows(key)  # type: ignore[return-value]

    def _compiled_for(self, using: str, *, first: bool) -> _Compiled:
        compiled = self._compiled.get((using, first))
        if compiled is None:
            with scoping.unscoped():  # compiled once for every request: no request's rooms in it
                queryset = self._build(_MARKER)
            if first and not queryset.ordered:
                queryset = queryset.order_by("pk")  # as QuerySet.first()
            if first:  # the database sends one row, not every row for the first to be kept
                queryset = queryset[:1]
            compiled = self._compiled[using, first] = _Compiled.of(queryset, using)
        return compiled


class _Compiled:
    def __init__(self, compiler: Any, sql: str, params: tuple[Any, ...], place: int) -> None:
        self.compiler, self.sql, self.params, self.place = compiler, sql, list(params), place
        self.db = compiler.using
        info = compiler.klass_info
        self.model = info["model"]
        start, end = info["select_fields"][0], info["select_fields"][-1] + 1
        self.own = slice(start, end)
        self.names = [column[0].target.attname for column in compiler.select[start:end]]
        self.related = get_related_populators(info, compiler.select, self.db)
        columns = [column[0] for column in compiler.select[0 : compiler.col_count]]
        self.converters = compiler.get_converters(columns)
        self.locks = bool(compiler.query.select_for_update)

    @classmethod
    def of(cls, queryset: QuerySet[Any], using: str) -> _Compiled:
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        places = [i for i, value in enumerate(params) if value == _MARKER]
        if len(places) != 1 or compiler.annotation_col_map or not compiler.klass_info:
            raise ValueError(
                f"PreparedRead cannot prepare {queryset.model.__name__}'s read: its SQL must "
                "carry the key as exactly one parameter, with no annotations"
            )
        return cls(compiler, sql, params, places[0])

    def rows(self, key: Any, *, limit: int | None = None) -> list[Model]:
        connection = connections[self.db]
        if self.locks and connection.features.has_select_for_update and connection.get_autocommit():
            # What Django's compiler raises: a lock outside a transaction is no lock.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(self.params)
        params[self.place] = key
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            fetched = cursor.fetchall() if limit is None else cursor.fetchmany(limit)
        found = []
        converted = (
            self.compiler.apply_converters(fetched, self.converters) if self.converters else fetched
        )
        for row in converted:
            instance = self.model.from_db(self.db, self.names, row[self.own])
            for populator in self.related:
                populator.populate(row, instance)
            if scoping.admits(instance):  # the request's cardrooms', as the manager would
                found.append(instance)
        return found
