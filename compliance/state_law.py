"""Players under the law in ``verify_state`` (``compliance.state``): the exclusion lists against
the audit events that made and ended each entry and the seals they carry (``patrons.seals``),
and each currency transaction report against the cash log it sums (append-only) and the audit
events that made and filed it."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from audit.actions import AuditAction
from audit.models import AuditEvent
from core.money import ZERO
from patrons import seals
from patrons.keys import id_hash, normal_id, normal_text
from patrons.models import CTR_THRESHOLD, CashTransaction, CurrencyTransactionReport, Exclusion

from .entries import Offence

_UNKNOWN = object()  # an end replaced before ``exclusion.ended`` recorded what it replaced


def _cents(value: Decimal) -> str:
    return f"{value:.2f}"


def _day(value: Any) -> date | None:
    return date.fromisoformat(value) if value else None


# --- exclusions --------------------------------------------------------------------------------


@dataclass
class _Import:
    seq: int
    payload: dict[str, Any]
    digest: Any = field(default_factory=lambda: seals.import_digest(()))
    seen: int = 0
    checkable: bool = True  # every entry's end as made is known

    @property
    def ids(self) -> list[int]:
        return [pk for first, last in self.payload.get("ids", []) for pk in range(first, last + 1)]


@dataclass
class _ExclusionEvents:
    added: dict[int, list[tuple[int, dict[str, Any]]]] = field(default_factory=dict)
    ended: dict[int, list[tuple[int, dict[str, Any]]]] = field(default_factory=dict)
    imports: list[_Import] = field(default_factory=list)
    owner: dict[int, _Import] = field(default_factory=dict)  # entry id: the import that made it
    legacy_imported: int = 0  # entries imported before imports named them


def _exclusion_events() -> _ExclusionEvents:
    found = _ExclusionEvents()
    actions = [
        AuditAction.EXCLUSION_ADDED,
        AuditAction.EXCLUSION_ENDED,
        AuditAction.EXCLUSION_LIST_IMPORTED,
    ]
    events = AuditEvent.objects.filter(action__in=actions).order_by("seq")
    for seq, action, object_id, text in events.values_list(
        "seq", "action", "object_id", "payload"
    ).iterator(chunk_size=2000):
        payload = json.loads(text)
        if action == AuditAction.EXCLUSION_LIST_IMPORTED:
            if "ids" not in payload:
                found.legacy_imported += int(payload.get("added", 0))
                continue
            made = _Import(seq, payload)
            found.imports.append(made)
            for pk in made.ids:
                found.owner[pk] = made
        else:
            book = found.added if action == AuditAction.EXCLUSION_ADDED else found.ended
            book.setdefault(int(object_id), []).append((seq, payload))
    return found


def check_exclusions() -> tuple[int, int]:
    """Every entry: made by one audit event, with the fields it sealed, its term as its
    events last set it, its lookup keys its own; and every entry an event names is there.
    Answers how many were checked, and how many of them carry no seal (made before seals)."""
    events = _exclusion_events()
    count = unsealed = legacy = 0
    seen: set[int] = set()
    for row in Exclusion.objects.order_by("pk").iterator(chunk_size=2000):
        seen.add(row.pk)
        _own_keys(row)
        made = _term_as_made(row, events.ended.get(row.pk, []))
        if row.pk in events.added:
            unsealed += not _as_added(row, events.added[row.pk], made)
        elif row.pk in events.owner:
            imported = events.owner[row.pk]
            imported.seen += 1
            if made is _UNKNOWN:
                imported.checkable = False
            else:
                imported.digest.update(seals.sealed_text(row, ends_on=made).encode() + b"\n")
        elif row.source == Exclusion.Source.STATE_LIST and legacy < events.legacy_imported:
            legacy += 1  # imported before imports named their entries: counted, not sealed
            unsealed += 1
        else:
            raise Offence(
                f"patrons_exclusion #{row.pk}",
                "no audit event made it (exclusion.added or exclusion.list_imported)",
            )
        count += 1
    _named_are_there(events, seen)
    for imported in events.imports:
        _as_imported(imported, seen)
        unsealed += 0 if imported.checkable else imported.seen
    return count, unsealed


def _own_keys(row: Exclusion) -> None:
    """The keys an entry is matched on are its own fields' (a name or ID changed without its
    key, or the key without the field, matches someone else)."""
    if row.name_key != normal_text(row.name):
        raise Offence(f"patrons_exclusion #{row.pk}", "its name key is not its name's")
    number = normal_id(row.id_number or "")
    expected = id_hash(row.id_type, row.id_issuer, number) if number else ""
    if row.id_hash != expected:
        raise Offence(
            f"patrons_exclusion #{row.pk}",
            "its ID lookup hash is not its ID number's (after ID_LOOKUP_KEY changes, run "
            "manage.py rehash_ids)",
        )


def _term_as_made(row: Exclusion, ended: list[tuple[int, dict[str, Any]]]) -> Any:
    """The end of the entry's term as it was made, once its ``exclusion.ended`` events are
    accounted for; the term now must be the one the last of them set."""
    if not ended:
        return row.ends_on
    seq, last = ended[-1]
    if row.ends_on != _day(last["ends_on"]):
        raise Offence(
            f"patrons_exclusion #{row.pk}",
            f"its term ends on {row.ends_on or 'never (for life)'}, but exclusion.ended "
            f"(event #{seq}) ended it on {last['ends_on']}",
        )
    first = ended[0][1]
    return _day(first["was"]) if "was" in first else _UNKNOWN


def _as_added(row: Exclusion, added: list[tuple[int, dict[str, Any]]], made: Any) -> bool:
    """Against its ``exclusion.added`` event; False when that event carries no seal."""
    if len(added) > 1:
        events = ", ".join(f"#{seq}" for seq, _ in added)
        raise Offence(f"patrons_exclusion #{row.pk}", f"{len(added)} events made it ({events})")
    seq, payload = added[0]
    if made is not _UNKNOWN and _day(payload.get("ends_on")) != made:
        raise Offence(
            f"patrons_exclusion #{row.pk}",
            f"its term ends on {made or 'never (for life)'}, but exclusion.added (event "
            f"#{seq}) made it end on {payload.get('ends_on') or 'never (for life)'}",
        )
    if "seal" not in payload or made is _UNKNOWN:
        return False
    if not seals.seal_ok(seals.sealed_text(row, ends_on=made), payload["seal"], payload["key_id"]):
        raise Offence(
            f"patrons_exclusion #{row.pk}",
            f"its fields are not those exclusion.added sealed (event #{seq}): it was edited",
        )
    return True


def _as_imported(imported: _Import, seen: set[int]) -> None:
    payload = imported.payload
    if imported.seen != int(payload.get("added", 0)) or imported.seen != len(imported.ids):
        missing = next((pk for pk in imported.ids if pk not in seen), None)
        raise Offence(
            f"audit event #{imported.seq}",
            f"exclusion.list_imported of {payload.get('file')} made {payload.get('added')} "
            f"entries; exclusion #{missing} of them is not in patrons_exclusion",
        )
    text = imported.digest.hexdigest()
    if imported.checkable and not seals.seal_ok(text, payload["seal"], payload["key_id"]):
        raise Offence(
            f"audit event #{imported.seq}",
            f"the {imported.seen} entries exclusion.list_imported made from "
            f"{payload.get('file')} are not those it sealed: one was edited",
        )


def _named_are_there(events: _ExclusionEvents, seen: set[int]) -> None:
    for book, action in ((events.added, "exclusion.added"), (events.ended, "exclusion.ended")):
        for pk in sorted(set(book) - seen):
            raise Offence(
                f"audit event #{book[pk][0][0]}",
                f"{action} names exclusion #{pk}, which is not in patrons_exclusion",
            )


# --- currency transaction reports ----------------------------------------------------------------


@dataclass
class _CashLog:
    """The cash log summed per person (every record of theirs) and gaming day (on Decimal, in
    Python), with the ids of each day's transactions, and the CTRs' links to them."""

    totals: dict[tuple[int, date], list[Decimal]] = field(
        default_factory=lambda: defaultdict(lambda: [ZERO, ZERO])
    )
    made_of: dict[tuple[int, date], set[int]] = field(default_factory=lambda: defaultdict(set))
    links: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    amounts: dict[int, tuple[bool, Decimal]] = field(default_factory=dict)  # (out?, amount)

    def sum_of(self, transactions: set[int]) -> tuple[Decimal, Decimal]:
        """Cash in and out of these transactions (a filed version's own)."""
        sums = [ZERO, ZERO]
        for pk in transactions:
            out, amount = self.amounts.get(pk, (False, ZERO))
            sums[out] += amount
        return sums[0], sums[1]

    @classmethod
    def read(cls) -> _CashLog:
        log = cls()
        rows = CashTransaction.objects.values_list(
            "pk", "player__person_id", "gaming_day", "direction", "amount"
        )
        for pk, person, day, direction, amount in rows.iterator(chunk_size=5000):
            log.totals[(person, day)][direction != CashTransaction.Direction.IN] += amount
            log.made_of[(person, day)].add(pk)
            log.amounts[pk] = (direction != CashTransaction.Direction.IN, amount)
        through = CurrencyTransactionReport.transactions.through
        for report, transaction in through.objects.values_list(
            "currencytransactionreport_id", "cashtransaction_id"
        ).iterator(chunk_size=5000):
            log.links[report].add(transaction)
        return log


def check_ctrs() -> int:
    """Every CTR against the cash log of its person and day and against the events that made
    and filed it; every day over the line has its CTR. A day's versions run 1, 2, ... each
    amending the one before, which is filed; the latest sums the day's cash log, a filed
    earlier one its own transactions, as the event that filed it says."""
    log = _CashLog.read()
    created, filed = _ctr_events()
    reports = CurrencyTransactionReport.objects.order_by("person_id", "gaming_day", "version")
    days_seen: dict[tuple[int, date], list[int]] = defaultdict(list)
    rows = list(reports.values_list(*_CTR_FIELDS))
    latest = {(row[1], row[2]): row[3] for row in rows}
    for pk, person, day, version, amends, cash_in, cash_out, status, reference in rows:
        row, where = f"patrons_currencytransactionreport #{pk}", f"person {person} gaming day {day}"
        versions = days_seen[(person, day)]
        if version != len(versions) + 1 or amends != (versions[-1] if versions else None):
            raise Offence(
                row, f"{where}: version {version} does not follow version {len(versions)}"
            )
        figures = (cash_in, cash_out)
        if version == latest[(person, day)]:
            _sums_the_day(log, row, where, figures, pk, (person, day))
        elif status != CurrencyTransactionReport.Status.FILED:
            raise Offence(row, f"{where}: version {version} was amended but is not filed")
        elif figures != log.sum_of(log.links.get(pk, set())):
            raise Offence(row, f"{where}: version {version}'s figures are not those it filed")
        if pk not in created:
            raise Offence(row, f"{where}: no cash.ctr_created event made it")
        _as_filed(row, where, status, reference, filed.get(pk), figures)
        versions.append(pk)
    for (person, day), (logged_in, logged_out) in sorted(log.totals.items()):
        if max(logged_in, logged_out) > CTR_THRESHOLD and (person, day) not in days_seen:
            raise Offence(
                f"person {person} gaming day {day}",
                f"cash in {_cents(logged_in)} and out {_cents(logged_out)}: over "
                f"${_cents(CTR_THRESHOLD)}, with no CTR (patrons_currencytransactionreport)",
            )
    return len(days_seen)


_CTR_FIELDS = (
    "pk",
    "person_id",
    "gaming_day",
    "version",
    "amends_id",
    "cash_in",
    "cash_out",
    "status",
    "filing_reference",
)


def _sums_the_day(
    log: _CashLog,
    row: str,
    where: str,
    figures: tuple[Decimal, Decimal],
    pk: int,
    key: tuple[int, date],
) -> None:
    logged_in, logged_out = log.totals.get(key, [ZERO, ZERO])
    if figures != (logged_in, logged_out):
        raise Offence(
            row,
            f"{where}: its cash in and out are {_cents(figures[0])} and {_cents(figures[1])}, "
            f"the cash log's {_cents(logged_in)} and {_cents(logged_out)}",
        )
    if max(logged_in, logged_out) <= CTR_THRESHOLD:
        raise Offence(row, f"{where}: no cash in or out over ${_cents(CTR_THRESHOLD)}")
    if log.links.get(pk, set()) != log.made_of[key]:
        raise Offence(row, f"{where}: its transactions are not the day's cash log")


def _as_filed(
    row: str,
    where: str,
    status: str,
    reference: str,
    filed: tuple[int, str, tuple[str, str] | None] | None,
    figures: tuple[Decimal, Decimal],
) -> None:
    is_filed = status == CurrencyTransactionReport.Status.FILED
    if filed is not None and filed[2] is not None and filed[2] != tuple(map(_cents, figures)):
        raise Offence(
            row, f"{where}: filed with cash in and out {filed[2]} (event #{filed[0]}), not so now"
        )
    if is_filed == (filed is not None) and (filed is None or filed[1] == reference):
        return
    said = f"filed as {filed[1]!r} (event #{filed[0]})" if filed else "not filed"
    raise Offence(row, f"{where}: it is {status} {reference!r}, but the audit log says {said}")


def _ctr_events() -> tuple[set[int], dict[int, tuple[int, str, tuple[str, str] | None]]]:
    """The CTRs events made (created or amended), and those filed: the event's seq, the
    reference and the figures filed (events before versions carried none)."""
    created: set[int] = set()
    filed: dict[int, tuple[int, str, tuple[str, str] | None]] = {}
    events = AuditEvent.objects.filter(
        action__in=[AuditAction.CTR_CREATED, AuditAction.CTR_AMENDED, AuditAction.CTR_FILED],
        object_type="patrons.currencytransactionreport",
    ).order_by("seq")
    for seq, action, object_id, text in events.values_list("seq", "action", "object_id", "payload"):
        if action != AuditAction.CTR_FILED:
            created.add(int(object_id))
            continue
        payload = json.loads(text)
        figures = (
            (_cents(Decimal(payload["cash_in"])), _cents(Decimal(payload["cash_out"])))
            if "cash_in" in payload
            else None
        )
        filed[int(object_id)] = (seq, payload.get("reference", ""), figures)
    return created, filed
