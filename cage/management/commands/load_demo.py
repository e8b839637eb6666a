from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from cage.demo import load_demo
from cage.demo_shuffler import DemoShuffler, load_demo_shuffler
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
        shuffler = load_demo_shuffler()
        self.stdout.write(self.style.SUCCESS("Demo data loaded. Logins (password, signing PIN):"))
        for demo in users:
            login = f"{demo.username:<12} {DEMO_PASSWORD:<16} {DEMO_PIN:<6}"
            self.stdout.write(f"  {login} {demo.role}")
        self.stdout.write(f"Tables: {', '.join(name for name, _, _ in DEMO_TABLES)}")
        self.stdout.write("Yesterday's gaming day is played and closed: see Compliance > Cage.")
        if shuffler is not None:
            self._shuffler(shuffler)

    def _shuffler(self, shuffler: DemoShuffler) -> None:
        device, table = shuffler.device, shuffler.table
        self.stdout.write(
            f"{table}: its cards come from its shuffler ({device.make} {device.model}, "
            f"serial {device.serial})."
        )
        if shuffler.hand is not None:
            self.stdout.write(
                f"Hand {shuffler.hand.number} there was dealt by the shuffler (the simulator, over "
                "the device API): no card was entered."
            )
        if shuffler.token:
            self.stdout.write(
                "To deal its next hands, run this beside the server (its token is shown "
                "once, now):\n"
                f"    .venv/bin/python manage.py shuffler_simulate --table {table.pk} "
                f"--token {shuffler.token} --hands 10"
            )
        else:
            self.stdout.write(
                "To deal its next hands, run `manage.py shuffler_simulate --table "
                f"{table.pk} --token T` beside the server with the token shown when it was "
                "registered (or rotate it: POST /api/v1/devices/"
                f"{device.pk}/rotate-token/ as a floor supervisor)."
            )
