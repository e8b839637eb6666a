from typing import Any

from django.core.management.base import BaseCommand

from tables.demo import DEMO_PASSWORD, DEMO_TABLES, load_demo_data


class Command(BaseCommand):
    help = "Create the demo users, cardroom, tables and seated players (safe to run again)."

    def handle(self, *args: Any, **options: Any) -> None:
        users = load_demo_data()
        self.stdout.write(self.style.SUCCESS("Demo data loaded. Logins:"))
        for demo in users:
            self.stdout.write(f"  {demo.username:<12} {DEMO_PASSWORD:<16} {demo.role}")
        self.stdout.write(f"Tables: {', '.join(name for name, _, _ in DEMO_TABLES)}")
