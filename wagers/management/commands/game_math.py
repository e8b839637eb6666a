"""``manage.py game_math``: a table's theoretical figures (shared/spec/game-math.md) from stdin.

One JSON object in the shape of settle-json's ``table`` object in, its figures out; with
``--jsonl`` one table per line, one result per line. Exit status 0 when every table was
answered, 2 when any was refused. Only JSON on stdout.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from django.core.management.base import BaseCommand

from engine import RoundError
from engine.game_math import game_math_json


class Command(BaseCommand):
    help = "Print the return and house edge of each wager of a table given on stdin (game-math.md)."
    requires_system_checks: list[str] = []  # pure computation: no database, no checks
    stealth_options = ("stdin",)

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--jsonl", action="store_true", help="one table per input line, one result per line"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stdin: TextIO = options.get("stdin") or sys.stdin
        documents = _lines(stdin) if options["jsonl"] else iter([stdin.read()])
        refused = False
        for text in documents:
            result = _figures_text(text)
            refused = refused or "error" in result
            self.stdout.write(json.dumps(result))
        if refused:
            raise SystemExit(2)


def _lines(stream: TextIO) -> Iterator[str]:
    """Each non-blank line: a trailing newline or blank separator is not a table."""
    return (line for line in stream if line.strip())


def _figures_text(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return {
            "error": {
                "message": f"This is not valid JSON: {error.msg} at line {error.lineno}, "
                f"column {error.colno}.",
                "field": None,
            }
        }
    try:
        return game_math_json(data)
    except RoundError as error:
        return {"error": error.as_dict()}
