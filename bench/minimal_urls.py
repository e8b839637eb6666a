"""One DRF view that parses a JSON body and runs one INSERT (autocommit: one statement), with
no authentication: what ``bench.api_load`` divides a hand's throughput by."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

#: Made by ``bench.api_load`` before the server starts.
TABLE = "bench_minimal_insert"


class MinimalInsert(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def post(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {TABLE} (note) VALUES (%s) RETURNING id",  # noqa: S608
                [str(request.data.get("note", ""))[:40]],
            )
            (row_id,) = cursor.fetchone()
        return Response({"id": row_id}, status=201)


def live(request: HttpRequest) -> HttpResponse:
    """What ``bench.api_load`` polls until the server answers."""
    return HttpResponse("ok")


urlpatterns = [path("insert/", MinimalInsert.as_view()), path("health/live/", live)]
