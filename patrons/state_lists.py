"""Reading a state exclusion list: a CSV file, one person a row (``CSV_COLUMNS``), read and
checked whole before anything is added (``exclusion_imports.exclusion_list_import``), a bad row
named by its line and column.

What a file may hold: UTF-8 text with no NUL character; a header row naming known columns
(order free), with ``kind``, ``name`` and ``starts_on``; dates as ``YYYY-MM-DD`` in ASCII
digits; cells no longer than their column keeps. A cell that a spreadsheet would run as a
formula (starting with ``=``, ``+``, ``-`` or ``@``, OWASP's CSV-injection rule) is refused,
not neutralised: a state's list has no reason to hold one, and an entry quietly changed
(``'=…``) would no longer match the person the state listed.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date

from django.db import connection

from core.csv_cells import FORMULA_STARTS
from core.errors import DomainError
from core.inputs import NUL

from .keys import normal_id
from .models import Exclusion

#: A state list's columns (a header row names them; order free; unknown columns refused).
CSV_COLUMNS = (
    "kind",
    "name",
    "date_of_birth",
    "id_type",
    "id_number",
    "id_issuer",
    "starts_on",
    "ends_on",
    "reason",
    "reference",
    "term",
    "action",
    "removal_reference",
    "removed_on",
)
#: A row's action: an entry added (the default), or the state's removal of one on file.
ADD, REMOVE = "add", "remove"
REQUIRED = {"kind", "name", "starts_on"}  # a removal row leaves kind, name and start empty
#: The longest each text column may be (what an Exclusion row keeps).
LONGEST = {
    "name": 100,
    "reference": 100,
    "id_issuer": 60,
    "id_type": 20,
    "reason": 2000,
    "term": 12,
    "action": 10,
    "removal_reference": 100,
}
LONGEST_ID_NUMBER = 40
#: How often reading reports its progress (rows).
PROGRESS_EVERY = 5_000


@dataclass(frozen=True)
class StateListRow:
    """One row as read: its line, its cells stripped (empty: ""), kind normalised."""

    line: int
    kind: str
    name: str
    date_of_birth: date | None
    id_type: str
    id_number: str
    id_issuer: str
    starts_on: date
    ends_on: date | None
    reason: str
    reference: str
    term: str = ""


@dataclass(frozen=True)
class StateRemoval:
    """A removal row: the state removed its entry ``reference`` on ``removed_on``."""

    line: int
    reference: str
    removal_reference: str
    removed_on: date


def state_list_check(text: str) -> int:
    """The quick checks a request makes before the list is queued, answered at once: NUL,
    the header, the CSV's structure and its cells' sizes. The number of rows, or a
    DomainError naming the line (field ``file``)."""
    reader = _reader(text)
    try:
        return sum(1 for _ in reader)
    except csv.Error as error:  # DictReader's own line_num lags a row behind on an error
        raise _malformed(reader.reader.line_num, error) from None


def state_list_rows(
    text: str, *, progress: Callable[[int], None] | None = None
) -> Iterator[StateListRow | StateRemoval]:
    """Every row of the list, read and checked; ``progress(rows so far)`` every few thousand.
    A bad row raises a DomainError naming its line and column (field ``file``)."""
    reader = _reader(text)
    line = 1
    try:
        for count, row in enumerate(reader, start=1):
            line = reader.line_num
            yield _row(row, line)
            if progress is not None and count % PROGRESS_EVERY == 0:
                progress(count)
    except csv.Error as error:
        raise _malformed(reader.reader.line_num or line, error) from None


def _reader(text: str) -> csv.DictReader[str]:
    if NUL in text:
        line = text.count("\n", 0, text.index(NUL)) + 1
        raise DomainError(f"Line {line} holds a NUL character.", field="file")
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")), strict=True)
    try:
        columns = set(reader.fieldnames or [])
    except csv.Error as error:
        raise _malformed(1, error) from None
    if unknown := columns - set(CSV_COLUMNS):
        raise DomainError(f"Unknown columns: {', '.join(sorted(unknown))}.", field="file")
    if missing := REQUIRED - columns:
        raise DomainError(f"Missing columns: {', '.join(sorted(missing))}.", field="file")
    return reader


def _malformed(line: int, error: csv.Error) -> DomainError:
    """The csv module's error (a cell over its size limit, a stray quote) as a refusal."""
    reason = str(error)
    if "field larger than field limit" in reason:
        reason = f"a cell is longer than {csv.field_size_limit():,} characters"
    return DomainError(f"Line {line}: the file is not a readable CSV ({reason}).", field="file")


def _row(row: dict[str | None, str | None], line: int) -> StateListRow | StateRemoval:
    if None in row:  # more cells than the header names
        raise DomainError(f"Line {line}: more cells than the header has columns.", field="file")
    value = {key: (text or "").strip() for key, text in row.items() if key is not None}
    try:
        for column, text in value.items():
            _cell(column, text)
        action = value.get("action", "").lower() or ADD
        if action not in (ADD, REMOVE):
            raise DomainError(f"The action is {ADD!r} or {REMOVE!r}.", field="action")
        if action == REMOVE:
            return _removal(value, line)
        return StateListRow(
            line=line,
            kind=value.get("kind", "").lower().replace("-", "_").replace(" ", "_"),
            name=value.get("name", ""),
            date_of_birth=_date(value.get("date_of_birth", ""), "date_of_birth"),
            id_type=value.get("id_type", ""),
            id_number=value.get("id_number", ""),
            id_issuer=value.get("id_issuer", ""),
            starts_on=_date(value.get("starts_on", ""), "starts_on") or _missing("starts_on"),
            ends_on=_date(value.get("ends_on", ""), "ends_on"),
            reason=value.get("reason", "") or "State exclusion list",
            reference=value.get("reference", ""),
            term=value.get("term", ""),
        )
    except DomainError as error:
        raise DomainError(f"Line {line}, {error.field}: {error.message}", field="file") from None


def _removal(value: dict[str, str], line: int) -> StateRemoval:
    for column in ("reference", "removal_reference"):
        if not value.get(column):
            raise DomainError("A removal names it.", field=column)
    return StateRemoval(
        line=line,
        reference=value["reference"],
        removal_reference=value["removal_reference"],
        removed_on=_date(value.get("removed_on", ""), "removed_on") or _missing("removed_on"),
    )


def _cell(column: str, text: str) -> None:
    if text.startswith(FORMULA_STARTS):
        raise DomainError(
            f"{text[:20]!r} starts with {text[0]!r}: a spreadsheet would run it as a formula.",
            field=column,
        )
    longest = LONGEST.get(column)
    if longest is not None and len(text) > longest:
        raise DomainError(f"At most {longest} characters ({len(text)} given).", field=column)
    if column == "id_number" and len(normal_id(text)) > LONGEST_ID_NUMBER:
        raise DomainError(f"At most {LONGEST_ID_NUMBER} letters and digits.", field=column)


def _date(text: str, column: str) -> date | None:
    if not text:
        return None
    try:  # ASCII digits only: date.fromisoformat reads no other
        return date.fromisoformat(text)
    except ValueError:
        raise DomainError(f"{text!r} is not a date (YYYY-MM-DD).", field=column) from None


def _missing(column: str) -> date:
    raise DomainError("It is empty.", field=column)


# --- what is on file already ---------------------------------------------------------

#: Rows read per fetch of what is on file.
STATE_LIST_ROWS_READ = 2_000


def state_lists_on_file() -> tuple[set[str], set[tuple[str, date | None, date]]]:
    """The state lists' references, and their people (name key, birth, start), on file."""
    rows = Exclusion.objects.filter(source=Exclusion.Source.STATE_LIST)
    references, people = set(), set()
    for reference, name_key, born, starts_on in rows.values_list(
        "reference", "name_key", "date_of_birth", "starts_on"
    ).iterator(chunk_size=STATE_LIST_ROWS_READ):
        references.add(reference)
        people.add((name_key, born, starts_on))
    return references, people


def one_import_at_a_time() -> None:
    """Two imports at once would each miss what the other adds: the second waits for the
    first's transaction (PostgreSQL; SQLite writes one transaction at a time anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [IMPORT_LOCK])


#: The advisory lock key of state-list imports ("excl" in ASCII).
IMPORT_LOCK = 0x6578636C
