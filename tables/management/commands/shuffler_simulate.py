import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.shuffler_simulator import (
    FAULTS,
    HttpDevice,
    InProcessDevice,
    Simulator,
    SimulatorError,
)


class Command(BaseCommand):
    help = (
        "Behave as the table's card-reading shuffler over the device API: wait for the "
        "table's hand to await cards, shuffle a deck, post its seven-card hands in dispense "
        "order (the spots by seat, the dealer's last), print what was dealt."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", type=int, required=True, help="the table's id")
        parser.add_argument(
            "--url", default="http://127.0.0.1:8000", help="the server (default: %(default)s)"
        )
        parser.add_argument(
            "--token",
            default="",
            help="the device's token, shown when the shuffler was registered or its token "
            "rotated (or $SHUFFLER_TOKEN)",
        )
        parser.add_argument(
            "--hands", type=int, default=1, help="how many hands to deal, one after the other"
        )
        parser.add_argument(
            "--wait",
            type=float,
            default=60.0,
            help="seconds to wait for each hand to await cards (default: %(default)s)",
        )
        parser.add_argument(
            "--in-process",
            action="store_true",
            help="the same API through Django's test client in this process (no server)",
        )
        parser.add_argument(
            "--fault", choices=FAULTS, help="send a spoiled message, which the system refuses"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        token = options["token"] or os.environ.get("SHUFFLER_TOKEN", "")
        if not token:
            raise CommandError("Give the device's token: --token T (or $SHUFFLER_TOKEN).")
        if options["hands"] < 1:
            raise CommandError("--hands takes 1 or more.")
        device = (
            InProcessDevice(token) if options["in_process"] else HttpDevice(options["url"], token)
        )
        simulator = Simulator(device)
        try:
            state = simulator.waiting()
        except SimulatorError as error:
            raise CommandError(str(error)) from error
        # A device token is its own table's only: say so rather than deal elsewhere.
        if state.get("table") != options["table"]:
            raise CommandError(
                f"This token is the shuffler's of table id {state.get('table')}, "
                f"not of table id {options['table']}."
            )
        name = state.get("table_name") or f"table id {options['table']}"
        self.stdout.write(f"Shuffler of {name}: waiting for a hand to await cards.")
        try:
            dealt = simulator.run(
                rounds=options["hands"],
                wait=options["wait"],
                fault=options["fault"],
                out=self.stdout.write,
            )
        except SimulatorError as error:
            raise CommandError(str(error)) from error
        refused = [d for d in dealt if not d.accepted]
        if refused and not options["fault"]:
            raise CommandError(f"{len(refused)} of {len(dealt)} messages were refused.")
