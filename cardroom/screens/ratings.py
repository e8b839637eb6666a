"""Player ratings on the player's page (floor supervisors and compliance): the sessions of the
page's period and their sums per gaming day and month, with a CSV of the days and months, and
"value now" for an open session whose decisions wait for the worker."""

from __future__ import annotations

import io
from datetime import date, datetime, timedelta

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from compliance import reports
from compliance.ratings import PlayerRatings, player_ratings
from compliance.ratings.rows import RATING_COLUMNS, rating_rows
from core.csv_cells import csv_writer
from core.errors import DomainError
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons.models import Player
from tables.models import Seating
from tables.selectors import gaming_day
from wagers.decision_costs import seating_decisions_value

from .base import SignedInRequest, role_required

auditors = role_required(COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR)


def ratings_for_period(player: Player, start: datetime, end: datetime) -> PlayerRatings:
    """The sessions begun in the gaming days the page's period touches."""
    cardroom = player.cardroom
    return player_ratings(player, gaming_day(cardroom, start), gaming_day(cardroom, end))


#: The period of the player's page when nothing else is asked: the last week.
PAGE_DAYS = 7


def player_page(
    request: SignedInRequest,
    player: Player,
    days: int = PAGE_DAYS,
    *,
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    """The player's page: sessions, stack movements and the rating over the last ``days``."""
    end = timezone.now()
    start = end - timedelta(days=days)
    context = {
        "report": reports.player_report(player, start, end),
        "rating": ratings_for_period(player, start, end),
        "start": start,
        "end": end,
        "refusal": refusal,
    }
    return render(request, "compliance/player.html", context, status=status)


def _day(text: str | None, default: date) -> date:
    try:
        return date.fromisoformat(text) if text else default
    except ValueError:
        return default


@auditors
def ratings_csv(request: SignedInRequest, pk: int) -> HttpResponse:
    """One player's rating per gaming day, then per month: ``?from=YYYY-MM-DD&to=…`` (the
    month to date by default)."""
    player = get_object_or_404(Player.objects.select_related("cardroom"), pk=pk)
    today = gaming_day(player.cardroom, timezone.now())
    last = _day(request.GET.get("to"), today)
    first = min(_day(request.GET.get("from"), last.replace(day=1)), last)
    first = max(first, last - timedelta(days=365))
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(RATING_COLUMNS)
    for row in rating_rows(player_ratings(player, first, last)):
        writer.writerow(row)
    response = HttpResponse(out.getvalue(), content_type="text/csv")
    response["Content-Disposition"] = (
        f'attachment; filename="ratings-player{player.pk}-{first}-{last}.csv"'
    )
    return response


@require_POST
@auditors
def session_value(request: SignedInRequest, pk: int) -> HttpResponse:
    """The "value now" button of an open session: its decisions valued at once; a session
    that ended is refused with its reason at the top of the player's page."""
    seating = get_object_or_404(Seating.objects.select_related("player__cardroom"), pk=pk)
    try:
        seating_decisions_value(seating=seating, by=request.user)
    except DomainError as error:
        return player_page(request, seating.player, refusal=error.message, status=409)
    return redirect("compliance-player", pk=seating.player_id)
