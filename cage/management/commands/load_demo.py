from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from cage.demo import load_demo
from tables.demo import DEMO_PASSWORD, DEMO_PIN, DEMO_TABLES


class Command(BaseCommand):
    help = (
        "Create the demo users, yesterday's gaming day played and closed (once), and the "
        "cardroom's tables open with seated players (safe to run again)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION:
            # Demo users share a published password: never in a real cardroom's database.
            raise CommandError(
                "load_demo refuses to run under production settings: its users share a "
                "published password. Use a development database (cardroom.settings.local)."
            )
        users = load_demo()
        self.stdout.write(self.style.SUCCESS("Demo data loaded. Logins (password, signing PIN):"))
        for demo in users:
            login = f"{demo.username:<12} {DEMO_PASSWORD:<16} {DEMO_PIN:<6}"
            self.stdout.write(f"  {login} {demo.role}")
        self.stdout.write(f"Tables: {', '.join(name for name, _, _ in DEMO_TABLES)}")
        self.stdout.write("Yesterday's gaming day is played and closed: see Compliance > Cage.")
