"""``manage.py verify_state``: check the compliance state the application's database role could
change against the audit log (``compliance.state``): self-approval, role groups, exclusions,
CTRs, settled hands' cards.

Exit 0 and say what was checked when it agrees; exit 1 and name the first offending row
(``tables_cardroom #2``, ``auth_user #7``, ``patrons_exclusion #31``, ...) when it does not.
"""

from typing import Any

from django.core.management.base import BaseCommand

from compliance.state import as_lines, verify_state


class Command(BaseCommand):
    help = "Verify the compliance state against the audit log."

    def handle(self, *args: Any, **options: Any) -> None:
        report = verify_state()
        for line in as_lines(report):
            self.stdout.write(line)
        if not report.ok:
            raise SystemExit(1)
