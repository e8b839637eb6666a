"""Every CSV the cardroom writes neutralises cells a spreadsheet would run as formulas
(OWASP's CSV-injection rule), through one writer: no other ``csv.writer`` in the code (the MTL
with a player named like a formula: tests/patrons/test_cash.py)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from core.csv_cells import csv_writer, neutral

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "cardroom",
    "compliance",
    "cage",
    "wagers",
    "rake",
    "tables",
    "patrons",
    "audit",
    "core",
)


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("-401.00", "-401.00"),  # a net: a number, not a formula
        ("-5", "-5"),
        ("Robin =Vale", "Robin =Vale"),
        ("2024-03-01", "2024-03-01"),
        (12, 12),
    ],
)
def test_a_cell_a_spreadsheet_would_run_gets_a_leading_quote(cell, written):
    assert neutral(cell) == written


def test_the_writer_neutralises_every_cell_of_every_row():
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(["name", "net"])
    writer.writerows([["=1+1", "-10.00"], ["@x", "5.00"]])

    assert list(csv.reader(io.StringIO(out.getvalue()))) == [
        ["name", "net"],
        ["'=1+1", "-10.00"],
        ["'@x", "5.00"],
    ]


def test_every_csv_the_code_writes_goes_through_the_one_writer():
    writers = [
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "csv.writer(" in path.read_text() or "csv.DictWriter(" in path.read_text()
    ]

    assert writers == ["core/csv_cells.py"]
