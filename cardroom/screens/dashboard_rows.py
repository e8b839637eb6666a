"""The floor dashboard's rows as HTML, one format per row: a room of 250 tables is thousands of
cells, and placing each through the template engine (a lookup, localizing, escaping per
variable) was most of the dashboard's time. Each table is a ``tbody`` of its own (its row and
its held seats) that a pushed change replaces alone (``static/floor_push.js``). The values
come as text from ``wagers.dashboard_selectors`` and are escaped here."""

from __future__ import annotations

from html import escape
from typing import Any

from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

from .templatetags.cardroom import local

_ROW = (
    '<tbody id="rows-{pk}">\n'
    '    <tr id="table-{pk}" class="{state}">\n'
    '      <td><a href="{url}">{name}</a> <br><small>{banking}</small></td>\n'
    '      <td class="status">{state}</td>\n'
    '      <td class="dealer">{dealer}</td>\n'
    '      <td class="hand">{hand}</td>\n'
    '      <td class="num seated">{seated}</td>\n'
    '      <td class="limits">{limits}</td>\n'
    '      <td class="fee">{fee}</td>\n'
    '      <td class="num hands-per-hour">{hands_per_hour}</td>\n'
    '      <td class="pending">{pending}</td>\n'
    '      <td><a href="{play_url}">Seats and play</a></td>\n'
    "    </tr>{held}\n"
    "  </tbody>"
)
_LIMITS = "ante ${} <br><small>bonus ${}</small>"
_FEE = "${} <br><small>{}</small>"
_HELD = (
    '\n    <tr id="held-{}-{}" class="flagged held">\n'
    '      <td colspan="10"><span class="tag call-floor">seat held</span> <strong>{} seat {},'
    " {}</strong>, since {}: {}. The dealer is told to call a floor supervisor; no wagers,"
    ' the chips leave through your cash-out. <a href="{}">Incident log</a></td>\n'
    "    </tr>"
)


def rows_html(rows: list[dict[str, Any]]) -> SafeString:
    # Every value is text (the selector's) escaped here: the standard library's escape is
    # Django's without its wrappers, a cost at each of thousands of cells.
    return mark_safe("".join(_row(row) for row in rows))


def _row(row: dict[str, Any]) -> str:
    s = row["settings"]
    limits = _LIMITS.format(escape(s["ante"]), escape(s["bonus"])) if s else ""
    fee = ""
    if s:
        fee = "no fee" if s["no_fee"] else _FEE.format(escape(s["fee"]), escape(s["fee_mode"]))
    pending = f"<strong>{escape(row['pending'])}</strong>" if row["pending"] else ""
    return _ROW.format(
        pk=escape(row["pk"]),
        state=escape(row["state"]),
        url=escape(row["url"]),
        name=escape(row["name"]),
        banking=escape(row["banking"]),
        dealer=escape(row["dealer"]),
        hand=escape(row["hand"]),
        seated=escape(row["seated"]),
        limits=limits,
        fee=fee,
        hands_per_hour=escape(row["hands_per_hour"]),
        pending=pending,
        play_url=escape(row["play_url"]),
        held=_held(row) if row["held"] else "",
    )


def _held(row: dict[str, Any]) -> SafeString:
    incidents = reverse("law-incidents")
    return format_html_join(
        "",
        _HELD,
        (
            (
                row["pk"],
                hold["seat"],
                row["name"],
                hold["seat"],
                hold["player"],
                local(hold["since"], "H:i"),
                hold["reason"],
                incidents,
            )
            for hold in row["held"]
        ),
    )
