"""The views every API module builds on: parse with a serializer, call one service, answer."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from django.contrib.auth.models import User
from django.db.models import Model
from django.shortcuts import get_object_or_404
from rest_framework import exceptions, serializers
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.roles import TABLE_STAFF

from .idempotency import idempotent
from .inputs import refuse_unknown_keys
from .parsers import PARSERS

Row = TypeVar("Row", bound=Model)


def actor(request: Request) -> User:
    """The signed-in user a request acts as (the permission classes let nobody else by)."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user


class ServiceView(APIView):
    """A view that parses with ``input_serializer``, calls one service, and answers."""

    input_serializer: ClassVar[type[serializers.Serializer[Any]] | None] = None
    read_roles: ClassVar[tuple[str, ...]]
    write_roles: ClassVar[tuple[str, ...]]
    parser_classes = PARSERS  # JSON (bounded in depth), forms, multipart
    #: The body is read by something else that refuses what it does not know (the settle
    #: preview's round, by the settle-json contract).
    body_is_free: ClassVar[bool] = False
    #: The POST moves chips or cash or settles: refused without an Idempotency-Key (428).
    moves_money: ClassVar[bool] = False

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """After authentication and the role check: a write that takes no input refuses a
        body with any field in it (an unknown field is never silently ignored)."""
        super().initial(request, *args, **kwargs)
        if request.method in SAFE_METHODS or self.input_serializer or self.body_is_free:
            return
        refuse_unknown_keys(request.data, ())

    def parse(self, request: Request) -> dict[str, Any]:
        if self.input_serializer is None:
            return {}
        serializer = self.input_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


class StepView(ServiceView, Generic[Row]):
    """One step on one row named by the URL (a hand, a seating): parse, call the step's service
    with the row, answer with the row as it is now. Subclasses name the input and ``run``."""

    model: ClassVar[type[Model]]
    write_roles: ClassVar[tuple[str, ...]] = TABLE_STAFF
    #: The step's services read the row themselves, locked, and refuse a missing one
    #: (``NotFound``): the view names it by its key and reads nothing first.
    service_reads_row: ClassVar[bool] = False

    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        row: Row = (
            self.model(pk=pk)  # type: ignore[assignment]
            if self.service_reads_row
            else get_object_or_404(self.model, pk=pk)
        )
        changed = self.run(row, self.parse(request), actor(request))
        return Response(self.answer(row if changed is None else changed))

    def run(self, row: Row, data: dict[str, Any], by: User) -> Row | None:
        """Call the step's service; return the row as the service left it, if it gives it
        (then ``answer`` need not read it again)."""
        raise NotImplementedError

    def answer(self, row: Row) -> Any:
        raise NotImplementedError
