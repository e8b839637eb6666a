"""Compliance state verification: what the application's database role could change unseen.

The books (``compliance.books``) are money; this is the state the law and R17 care about that
lives in rows the runtime role may update or delete. Each is checked against what cannot be
changed unseen, the hash-chained audit log or append-only records:

1. **Self-approval** (R17): each cardroom's switch is what its ``cardroom.created`` event and
   its latest approved ``cardroom.self_approval.change_approved`` say.
2. **Roles**: each account's role groups are what its latest role event says
   (``compliance.state_roles``; the contract is in ``audit.role_events``).
3. **Exclusions**: each entry is there, made by an audit event, with the fields that event
   sealed and the term its ``exclusion.ended`` events set (``compliance.state_law``).
4. **CTRs**: each report's cash in and out are the cash log's (append-only) for its player and
   gaming day, a day over $10,000.00 has its report, and each report's making and filing are
   on the audit log (``compliance.state_law``).
5. **A settled hand's cards and play**: the hand's and its spots' cards, stakes and dead
   reasons are its original settlement entry's round (append-only; ``verify_books`` holds the
   round to the engine), its decisions and raises the round of the entry in force.

Comparison with the audit log, rather than making these tables append-only, leaves the
services and their readers as they are; why for each is in docs/compliance.md ("Verifying the
compliance state"). ``manage.py verify_state`` exits 1 naming the first offending row, as
``verify_books`` does; beat runs it every hour.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from decimal import Decimal
from typing import Any

from audit.actions import AuditAction
from audit.models import AuditEvent
from patrons.models import Cardroom
from wagers.models import Hand, Settlement, Spot

from .entries import Offence
from .snapshots import read_snapshot
from .state_law import check_ctrs, check_exclusions
from .state_roles import check_roles

CHUNK = 500
Progress = Callable[[int], None]


@dataclass
class StateReport:
    ok: bool = True
    row: str = ""  # the first offending row, e.g. "tables_cardroom #2"
    problem: str = ""
    cardrooms: int = 0
    accounts: int = 0
    exclusions: int = 0
    unsealed: int = 0  # exclusions made before seals: checked for being there only
    ctrs: int = 0
    hands: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def verify_state(progress: Progress | None = None) -> StateReport:
    """Check every area; stop at the first offending row."""
    report = StateReport()
    steps: list[Callable[[], None]] = [
        lambda: setattr(report, "cardrooms", check_self_approval()),
        lambda: setattr(report, "accounts", check_roles()),
        lambda: _exclusions(report),
        lambda: setattr(report, "ctrs", check_ctrs()),
        lambda: setattr(report, "hands", check_settled_hands()),
    ]
    try:
        for done, step in enumerate(steps):
            with read_snapshot():  # each check sees its rows and events at one moment
                step()
            if progress is not None:
                progress((done + 1) * 100 // len(steps))
    except Offence as offence:
        report.ok, report.row, report.problem = False, offence.row, offence.problem
        if progress is not None:
            progress(100)
    return report


def _exclusions(report: StateReport) -> None:
    report.exclusions, report.unsealed = check_exclusions()


def as_lines(report: StateReport) -> Iterable[str]:
    """The report in words, for the command and the logs."""
    counted = (
        f"{report.cardrooms} cardrooms' self-approval, {report.accounts} accounts' roles, "
        f"{report.exclusions} exclusions, {report.ctrs} CTRs, {report.hands} settled hands"
    )
    if report.ok:
        yield f"OK: {counted} agree with the audit log."
        if report.unsealed:
            yield (
                f"Note: {report.unsealed} exclusions made before exclusions were sealed are "
                "checked for being there only."
            )
    else:
        yield f"BROKEN: {report.row}: {report.problem}."
        yield f"Checked before it: {counted}."


def _on(value: bool) -> str:
    return "on" if value else "off"


# --- 1. self-approval ------------------------------------------------------------------------


def check_self_approval() -> int:
    """Each cardroom's switch against the events that set it: made off (``cardroom.created``),
    then each approved change."""
    said: dict[int, tuple[int, bool, str]] = {}
    events = AuditEvent.objects.filter(
        action__in=[AuditAction.CARDROOM_CREATED, AuditAction.SELF_APPROVAL_CHANGE_APPROVED]
    ).order_by("seq")
    for seq, action, kind, object_id, text in events.values_list(
        "seq", "action", "object_type", "object_id", "payload"
    ).iterator(chunk_size=2000):
        payload = json.loads(text)
        if action == AuditAction.CARDROOM_CREATED and kind == "tables.cardroom":
            said[int(object_id)] = (seq, bool(payload.get("self_approval_allowed")), action)
        elif action == AuditAction.SELF_APPROVAL_CHANGE_APPROVED:
            said[int(payload["cardroom"])] = (seq, bool(payload["allowed"]), action)
    rooms = Cardroom.objects.order_by("pk").values_list("pk", "name", "self_approval_allowed")
    count = 0
    for pk, name, allowed in rooms:
        if pk not in said:
            raise Offence(f"tables_cardroom #{pk}", f"{name}: no cardroom.created event made it")
        seq, expected, action = said[pk]
        if allowed != expected:
            raise Offence(
                f"tables_cardroom #{pk}",
                f"{name}: self-approval is {_on(allowed)}, but the audit log last set it "
                f"{_on(expected)} (event #{seq}, {action})",
            )
        count += 1
    return count


# --- 5. a settled hand's cards and play --------------------------------------------------------


def check_settled_hands() -> int:
    """Every hand with a settlement: its rows against its original and in-force rounds."""
    count = 0
    for chunk in _settled_hand_chunks():
        rounds: dict[int, list[dict[str, Any]]] = {}
        entries = (
            Settlement.objects.filter(hand_id__in=chunk)
            .exclude(kind=Settlement.Kind.REVERSAL)
            .order_by("hand_id", "entry")
            .values_list("hand_id", "round")
        )
        for hand_id, round_ in entries:
            rounds.setdefault(hand_id, []).append(round_)
        spots: dict[int, list[tuple]] = {}
        for row in (
            Spot.objects.filter(hand_id__in=chunk)
            .order_by("hand_id", "seat")
            .values_list(
                "hand_id", "pk", "seat", "player_id", "ante", "flush_bonus",
                "straight_flush_bonus", "cards", "dead_reason", "decision", "raise_amount",
            )
        ):  # fmt: skip
            spots.setdefault(row[0], []).append(row[1:])
        hands = Hand.objects.filter(pk__in=chunk).order_by("pk")
        for pk, table_id, number, dealer_cards, misdeal in hands.values_list(
            "pk", "table_id", "number", "dealer_cards", "misdeal"
        ):
            where = f"table {table_id} hand {number}"
            original, in_force = rounds[pk][0], rounds[pk][-1]
            _same_hand(pk, where, dealer_cards, misdeal, original)
            _same_spots(pk, where, spots.get(pk, []), original, in_force)
            count += 1
    return count


def _settled_hand_chunks() -> Iterator[list[int]]:
    originals = Settlement.objects.filter(kind=Settlement.Kind.ORIGINAL).order_by("hand_id")
    chunk: list[int] = []
    for hand_id in originals.values_list("hand_id", flat=True).iterator(chunk_size=5000):
        chunk.append(hand_id)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _same_hand(pk: int, where: str, cards: str, misdeal: str, original: dict[str, Any]) -> None:
    settled_cards = original.get("dealer", {}).get("cards", "")
    if cards != settled_cards:
        raise Offence(
            f"wagers_hand #{pk}",
            f"{where}: the dealer's cards are {cards or 'none'}, but it was settled with "
            f"{settled_cards or 'none'} (settlement entry 1)",
        )
    if misdeal != (original.get("misdeal") or ""):
        raise Offence(
            f"wagers_hand #{pk}",
            f"{where}: its misdeal is {misdeal or 'none'}, but it was settled with "
            f"{original.get('misdeal') or 'none'}",
        )


def _money(value: Any) -> Decimal:
    return Decimal(str(value or "0"))


def _same_spots(
    hand: int, where: str, rows: list[tuple], original: dict[str, Any], in_force: dict[str, Any]
) -> None:
    first = {spot["seat"]: spot for spot in original.get("spots", [])}
    now = {spot["seat"]: spot for spot in in_force.get("spots", [])}
    if {row[1] for row in rows} != set(first):
        seats = ", ".join(str(seat) for seat in sorted(first)) or "none"
        raise Offence(f"wagers_hand #{hand}", f"{where}: its spots are not those settled ({seats})")
    for pk, seat, player, ante, flush, straight, cards, dead, decision, raised in rows:
        settled, played = first[seat], now[seat]
        stored = (
            str(player), ante, flush, straight, cards, dead, decision, raised,
        )  # fmt: skip
        expected = (
            settled.get("player"),
            _money(settled.get("ante")),
            _money(settled.get("flush_bonus")),
            _money(settled.get("straight_flush_bonus")),
            settled.get("cards", ""),
            settled.get("dead", ""),
            played.get("decision", ""),
            _money(played.get("raise")),
        )
        if stored != expected:
            names = ("player", "ante", "flush bonus", "straight flush bonus", "cards", "dead",
                     "decision", "raise")  # fmt: skip
            what, here, there = next(
                (name, a, b) for name, a, b in zip(names, stored, expected, strict=True) if a != b
            )
            raise Offence(
                f"wagers_spot #{pk}",
                f"{where} seat {seat}, {what}: {here or 'none'} here, {there or 'none'} in its "
                "settlement (cards and stakes: the original entry's; decisions: the one in force)",
            )
