"""Which cardrooms a request may see and change: one deployment serves several rooms, and a
person works only in the rooms they are a member of.

Every request enters a scope (the set of cardroom ids its user may reach; none for an anonymous
one) and the models of a cardroom's records filter every query by it through their default
manager, ``CardroomScoped``: a row of another room is not there for the request (a lookup by id
is a 404, a list leaves it out, a service's lock on it finds nothing). The workers, the
management commands and code run outside a request act for the system and see every room
(no scope: ``current()`` is None).

django-scopes (pretix's) works the same way but refuses every query made outside a scope; here
only requests are scoped, so the Celery workers and the commands need no opt-out, and a request
is closed by default (it starts with no cardroom until its user is known).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Any, ClassVar, Generic, Self, TypeVar

from django.core.exceptions import FullResultSet
from django.db import models
from django.db.models import BooleanField, Expression, F, Q, Subquery

Row = TypeVar("Row", bound=models.Model)

_scope: ContextVar[frozenset[int] | None] = ContextVar("cardroom_scope", default=None)


def current() -> frozenset[int] | None:
    """The cardroom ids this request may reach, or None outside a request (every room)."""
    return _scope.get()


def enter(cardroom_ids: Iterable[int] | None) -> Token[frozenset[int] | None]:
    """Scope what follows to these cardrooms (None: every room); ``leave`` with the token."""
    return _scope.set(None if cardroom_ids is None else frozenset(cardroom_ids))


def leave(token: Token[frozenset[int] | None]) -> None:
    _scope.reset(token)


@contextmanager
def scoped_to(cardroom_ids: Iterable[int] | None) -> Iterator[None]:
    token = enter(cardroom_ids)
    try:
        yield
    finally:
        leave(token)


def unscoped() -> Any:
    """Every room, for what a request does on the system's behalf (the checks that a name is
    unused in every room, a device finding its own table)."""
    return scoped_to(None)


def include(cardroom_id: int) -> None:
    """Widen the request's scope by a cardroom it has just created (its creator's)."""
    ids = _scope.get()
    if ids is not None:
        _scope.set(ids | {cardroom_id})


def admits(row: models.Model) -> bool:
    """Whether the request may reach ``row``, read from it and the rows selected with it (a
    read keyed by a parent row, the parent not selected, was reached through the parent)."""
    ids = _scope.get()
    manager = type(row)._default_manager
    if ids is None or not isinstance(manager, CardroomScoped):
        return True
    if manager.cardroom_path == "pk":
        return row.pk in ids
    *hops, last = manager.cardroom_path.split("__")
    current_row: Any = row
    for hop in hops:
        field: Any = current_row._meta.get_field(hop)
        if not field.is_cached(current_row):
            return True
        current_row = field.get_cached_value(current_row)
    last_field: Any = current_row._meta.get_field(last)
    value = getattr(current_row, last_field.attname)
    return (value is None and manager.shared_when_null) or value in ids


def _condition(
    model: type[models.Model], path: str, ids: frozenset[int], *, shared: bool = False
) -> Q:
    """``path`` to the cardroom (``"pk"``, ``"cardroom"``, ``"table__cardroom"``) as a
    condition on ``model``'s own columns: a hop through a foreign key is a subquery, not a
    join, so that ``SELECT … FOR UPDATE`` still locks the model's rows alone."""
    if path == "pk":
        return Q(pk__in=ids)
    head, _, rest = path.partition("__")
    field: Any = model._meta.get_field(head)  # a foreign key
    if not rest:
        condition = Q(**{f"{field.attname}__in": ids})
        return condition | Q(**{f"{field.attname}__isnull": True}) if shared else condition
    related: type[models.Model] = field.related_model
    inner = related._base_manager.filter(_condition(related, rest, ids)).values("pk")
    return Q(_InRows(field.attname, inner))


class _InRows(Expression):
    """``column IN (SELECT …)``; on PostgreSQL ``column = ANY(ARRAY(SELECT …))``, which the
    planner runs once and applies as a filter, keeping the plan of the rest of the query (an
    IN would become a semi-join, and a page of hands read by its index a sort of them all)."""

    conditional = True
    output_field = BooleanField()

    def __init__(self, column: str, rows: models.QuerySet[Any]) -> None:
        super().__init__()
        self.column: Any = F(column)
        self.rows: Any = Subquery(rows)

    def get_source_expressions(self) -> list[Any]:
        return [self.column, self.rows]  # relabelled with the query when it becomes a subquery

    def set_source_expressions(self, exprs: Sequence[Any]) -> None:
        self.column, self.rows = exprs

    def resolve_expression(self, *args: Any, **kwargs: Any) -> _InRows:
        resolved = self.copy()
        resolved.column = self.column.resolve_expression(*args, **kwargs)
        resolved.rows = self.rows.resolve_expression(*args, **kwargs)
        return resolved

    def get_group_by_cols(self) -> list[Any]:
        return []

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        column, column_params = compiler.compile(self.column)
        rows, rows_params = compiler.compile(self.rows)  # "(SELECT …)"
        template = "%s = ANY(ARRAY%s)" if connection.vendor == "postgresql" else "%s IN %s"
        return template % (column, rows), [*column_params, *rows_params]


class _InTheRequestsCardrooms(Expression):
    """The scope's condition, made when the query's SQL is: a queryset built before a request
    (a view's class attribute, a serializer's field, one built while the URLs were imported)
    is limited by the request that runs it, never by the one that built it. No scope (outside a
    request) adds nothing; an empty one matches no row without asking the database."""

    conditional = True
    output_field = BooleanField()

    def __init__(self, manager: CardroomScoped[Any]) -> None:
        super().__init__()
        self.manager = manager

    def resolve_expression(self, *args: Any, **kwargs: Any) -> _InTheRequestsCardrooms:
        return self.copy()

    def get_group_by_cols(self) -> list[Any]:
        return []

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        ids = _scope.get()
        if ids is None:
            raise FullResultSet
        # An empty scope's ``__in ()`` is Django's EmptyResultSet: no row, and no query asked.
        condition = self.manager.condition(ids).resolve_expression(
            compiler.query, allow_joins=False
        )
        sql, params = compiler.compile(condition)
        return sql, list(params)


class CardroomScoped(models.Manager[Row], Generic[Row]):
    """The default manager of a model whose rows belong to a cardroom: every query made in a
    request sees the request's cardrooms' rows only. The model's ``_base_manager`` (following a
    foreign key, saving, ``refresh_from_db``) is not limited: a row reached through another is
    the other's room's. Made with ``CardroomScoped.by(path)`` (the related managers Django
    derives from it are made without arguments, so the path is the class's)."""

    cardroom_path: ClassVar[str]
    #: A row without a cardroom belongs to every room (a state list's exclusion).
    shared_when_null: ClassVar[bool] = False

    @classmethod
    def by(cls, cardroom_path: str, *, shared_when_null: bool = False) -> Self:
        attributes = {"cardroom_path": cardroom_path, "shared_when_null": shared_when_null}
        return type(cls.__name__, (cls,), attributes)()

    def condition(self, ids: frozenset[int]) -> Q:
        return _condition(self.model, self.cardroom_path, ids, shared=self.shared_when_null)

    def get_queryset(self) -> models.QuerySet[Row]:
        return super().get_queryset().filter(_InTheRequestsCardrooms(self))
