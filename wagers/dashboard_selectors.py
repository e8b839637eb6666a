"""The floor dashboard's rows, read for a room of hundreds of tables in a fixed number of
queries: plain values (no model instances) turned into the words and amounts each cell shows,
so the template only places them (rendering a template is most of a big room's cost)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, OuterRef, Q, Subquery
from django.urls import reverse

from core.money import money_text
from patrons.refusals import exclusion_reason
from tables.models import BANKING_CHOICES, Seating, Table, TableSession, TableSettings
from tables.staff_models import SettingChange

from .models import Hand

#: A fee mode as the floor reads it.
FEE_MODES = {
    "all_players": "every spot and the DP",
    "players_not_dp": "every spot but the DP",
    "dp_only": "the DP only",
    "none": "no fee",
}

_BANKING = dict(BANKING_CHOICES)
#: A placeholder table number, replaced in a URL reversed once for every row.
_PK = 987654321


def floor_dashboard(*, now: datetime, tables: Collection[int] | None = None) -> list[dict]:
    """Every table's live state (or only ``tables``'s, by id): open or closed, the dealer on
    duty, the hand in play, seated players, the limits and the fee in force (the latest
    settings version), hands settled in the last hour, pending changes, and the seats held
    because an exclusion matched their player (who, and why: the floor's). Three queries: the
    tables with what one row of each holds, the settings in force, the held seats."""

    def only(field: str) -> Q:
        return Q() if tables is None else Q(**{f"{field}__in": list(tables)})

    found = _tables(only("pk"), now)
    newest = TableSettings._base_manager.filter(table_id=OuterRef("table_id")).order_by("-version")
    latest = _latest_settings(only("table_id"), newest)
    held = _held(only("table_id"))
    table_url = reverse("floor-table", args=[_PK])
    play_url = reverse("dealer-table", args=[_PK])
    rows = []
    for pk, name, banking, seated, first, last, username, number, status, hour, pending in found:
        key = str(pk)
        # Text already: a number in a template is localized, a cost at every cell.
        rows.append(
            {
                "pk": key,
                "name": name,
                "banking": _BANKING.get(banking, banking),
                "state": "closed" if username is None else "open",
                "dealer": "" if username is None else (f"{first} {last}".strip() or username),
                "hand": "" if number is None else f"#{number} {status}",
                "seated": str(seated or 0),
                "settings": latest.get(pk),
                "hands_per_hour": str(hour or 0),
                "pending": str(pending or ""),
                "held": held.get(pk, []),
                "url": table_url.replace(str(_PK), key),
                "play_url": play_url.replace(str(_PK), key),
            }
        )
    return rows


def _tables(only: Q, now: datetime) -> Any:
    """Each table with its counts, dealer on duty (if open) and hand in play, as correlated
    subqueries: one row a table, no grouping of the whole room. The tables are the request's
    cardrooms' (``core.scoping``); what each subquery reads is its table's (the base managers:
    no second scoping condition in every subquery)."""
    mine = OuterRef("pk")
    on_duty = TableSession._base_manager.filter(table=mine, closed_at=None)
    in_play = Hand._base_manager.filter(table=mine, status__in=Hand.IN_PROGRESS).order_by("-number")
    settled = Hand._base_manager.filter(table=mine, settled_at__gte=now - timedelta(hours=1))
    return (
        Table.objects.filter(only)
        .annotate(
            seated=_count(Seating._base_manager.filter(table=mine, left_at=None)),
            first=Subquery(on_duty.values("dealer__first_name")[:1]),
            last=Subquery(on_duty.values("dealer__last_name")[:1]),
            username=Subquery(on_duty.values("dealer__username")[:1]),
            number=Subquery(in_play.values("number")[:1]),
            status=Subquery(in_play.values("status")[:1]),
            hour=_count(settled),
            pending=_count(SettingChange.objects.filter(table=mine, decision__isnull=True)),
        )
        .order_by("cardroom__name", "name")
        .values_list(
            "pk",
            "name",
            "banking",
            "seated",
            "first",
            "last",
            "username",
            "number",
            "status",
            "hour",
            "pending",
        )
    )


def _count(rows: Any) -> Subquery:
    return Subquery(rows.order_by().values("table").annotate(n=Count("pk")).values("n")[:1])


def _latest_settings(only: Q, newest: Any) -> dict[int, dict[str, Any]]:
    """Each table's settings in force (its latest version), as the limits and fee cells read."""
    latest = {}
    for (
        table,
        ante_min,
        ante_max,
        bonus_min,
        bonus_max,
        rake_mode,
        rake_amount,
    ) in TableSettings.objects.filter(
        only, version=Subquery(newest.values("version")[:1])
    ).values_list(
        "table_id", "ante_min", "ante_max", "bonus_min", "bonus_max", "rake_mode", "rake_amount"
    ):
        latest[table] = {
            "ante": f"{money_text(ante_min)}–${money_text(ante_max)}",
            "bonus": f"{money_text(bonus_min)}–${money_text(bonus_max)}",
            "no_fee": rake_mode == "none",
            "fee": money_text(rake_amount) if rake_amount is not None else "",
            "fee_mode": FEE_MODES.get(rake_mode, ""),
        }
    return latest


def _held(only: Q) -> dict[int, list[dict[str, Any]]]:
    held: dict[int, list[dict[str, Any]]] = {}
    for seating in (
        Seating.objects.filter(only, left_at=None, exclusion_hold__isnull=False)
        .select_related("player", "exclusion_hold")
        .defer("exclusion_hold__id_number")  # never decrypted for a reason in words
        .order_by("seat")
    ):
        assert seating.exclusion_hold is not None
        held.setdefault(seating.table_id, []).append(
            {
                "seat": seating.seat,
                "player": seating.player,
                "since": seating.held_at,
                "reason": exclusion_reason(seating.exclusion_hold),
            }
        )
    return held
