"""``manage.py settle_round``: the settle-json contract (shared/spec/settle-json.md) on stdin.

One JSON round in, its settlement out; with ``--jsonl`` one round per line, one result per
line. Exit status 0 when every round settled, 2 when any was refused. Only JSON on stdout.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from django.core.management.base import BaseCommand

from engine import settle_json_text


class Command(BaseCommand):
    help = "Settle High Card Flush rounds given as settle-json on stdin (see settle-json.md)."
    requires_system_checks: list[str] = []  # pure computation: no database, no checks
    stealth_options = ("stdin",)

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--jsonl", action="store_true", help="one round per input line, one result per line"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stdin: TextIO = options.get("stdin") or sys.stdin
        documents = _lines(stdin) if options["jsonl"] else iter([stdin.read()])
        refused = False
        for text in documents:
            result, refused_here = _settle_text(text)
            refused = refused or refused_here
            self.stdout.write(result)
        if refused:
            raise SystemExit(2)


def _lines(stream: TextIO) -> Iterator[str]:
    """Each non-blank line: a trailing newline or blank separator is not a round."""
    return (line for line in stream if line.strip())


def _settle_text(text: str) -> tuple[str, bool]:
    """The result's JSON text, and whether the round was refused."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        message = (
            f"This is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        )
        return json.dumps({"error": {"message": message, "field": None}}), True
    # The text is written directly, not json.dumps of settle_json's dict (per-line
    # cost); the engine's tests hold the two to the same bytes.
    return settle_json_text(data)
