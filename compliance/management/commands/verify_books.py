"""``manage.py verify_books``: check the money against itself and the engine.

Exit 0 and say what was checked when the books agree; exit 1 and name the first offending row
(``tables_seating #12``, ``wagers_settlement #40``, a table's gaming day) when they do not.
"""

from typing import Any

from django.core.management.base import BaseCommand

from compliance.books import as_lines, verify_books
from compliance.snapshots import read_snapshot


class Command(BaseCommand):
    help = "Verify the books: stacks, settlements against the engine, fees, conservation (R15)."

    def handle(self, *args: Any, **options: Any) -> None:
        with read_snapshot():
            report = verify_books()
        for line in as_lines(report):
            self.stdout.write(line)
        if not report.ok:
            raise SystemExit(1)
