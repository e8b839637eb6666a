from typing import Any

from django.core.management.base import BaseCommand

from cage.demo import load_demo
from tables.demo import DEMO_PASSWORD, DEMO_TABLES


class Command(BaseCommand):
    help = (
        "Create the demo users, yesterday's gaming day played and closed (once), and the "
        "cardroom's tables open with seated players (safe to run again)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        users = load_demo()
        self.stdout.write(self.style.SUCCESS("Demo data loaded. Logins:"))
        for demo in users:
            self.stdout.write(f"  {demo.username:<12} {DEMO_PASSWORD:<16} {demo.role}")
        self.stdout.write(f"Tables: {', '.join(name for name, _, _ in DEMO_TABLES)}")
        self.stdout.write("Yesterday's gaming day is played and closed: see Compliance > Cage.")
