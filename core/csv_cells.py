"""Every CSV the cardroom writes goes through ``csv_writer``: a cell that a spreadsheet would
run as a formula is neutralised by OWASP's rule for CSV injection — a cell starting with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'`` — so that a player
named ``=HYPERLINK(…)`` reaches the MTL as text. A plain number (``-401.00``, a net) is left
as it is: it is no formula, and an auditor's spreadsheet must still add it up."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import IO, Any

#: What a spreadsheet reads as the start of a formula (OWASP: CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def neutral(cell: Any) -> Any:
    """``cell`` as a spreadsheet will only ever show it."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


class CsvWriter:
    """``csv.writer``'s ``writerow`` and ``writerows``, every cell neutralised."""

    def __init__(self, out: IO[str], **options: Any) -> None:
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([neutral(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out: IO[str], **options: Any) -> CsvWriter:
    return CsvWriter(out, **options)
