"""A simulated card-reading shuffler: it does what a table's device does, over the device's own
HTTP API (docs/api.md, "A table's shuffler") and nothing else — it asks which hand waits for
cards, shuffles a deck, and posts that round's seven-card hands in dispense order (the live
spots by seat, the dealer's or the DP's hand last), each message with the next sequence number.

Two transports speak the same API: ``HttpDevice`` (urllib, a server anywhere) and
``InProcessDevice`` (Django's test client in this process: the demo, and tests that want no
server). Neither reads the database: the simulator knows what a device knows.
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.cards import CARD_NAMES, HAND_SIZE

WAITING_PATH = "/api/v1/device/hand/"
HANDS_PATH = "/api/v1/device/hands/"
#: A message the simulator may spoil on purpose (for a demonstration or a test of the
#: dealer's misdeal): one card in two hands (R1), or one hand short of the round.
FAULTS = ("repeated_card", "hand_short")


@dataclass(frozen=True)
class Reply:
    """What the server answered: the status and the JSON body."""

    status: int
    body: dict[str, Any]


class Device(Protocol):
    def get(self, path: str) -> Reply: ...

    def post(self, path: str, body: dict[str, Any]) -> Reply: ...


class SimulatorError(Exception):
    """The simulator could not deal: the server refused it, or no hand waited in time."""


class HttpDevice:
    """The device API over real HTTP, with the standard library (no new dependency)."""

    def __init__(self, url: str, token: str, *, timeout: float = 10.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def get(self, path: str) -> Reply:
        return self._send(urllib.request.Request(self.url + path, method="GET"))

    def post(self, path: str, body: dict[str, Any]) -> Reply:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        return self._send(request)

    def _send(self, request: urllib.request.Request) -> Reply:
        request.add_header("Authorization", f"Device {self.token}")
        request.add_header("Accept", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return Reply(response.status, _json(response.read()))
        except urllib.error.HTTPError as error:  # a refusal: its status and its body
            return Reply(error.code, _json(error.read()))
        except urllib.error.URLError as error:
            raise SimulatorError(f"Cannot reach {self.url}: {error.reason}.") from error


class InProcessDevice:
    """The same API through Django's test client, in this process (same URLs, same views,
    same authentication): for the demo and for tests that run no server."""

    def __init__(self, token: str, *, host: str = "localhost") -> None:
        from django.test import Client  # Django's client, not a test helper of the project

        self.client = Client(HTTP_HOST=host, HTTP_AUTHORIZATION=f"Device {token}")

    def get(self, path: str) -> Reply:
        response = self.client.get(path, HTTP_ACCEPT="application/json")
        return Reply(response.status_code, _json(response.content))

    def post(self, path: str, body: dict[str, Any]) -> Reply:
        response = self.client.post(path, data=json.dumps(body), content_type="application/json")
        return Reply(response.status_code, _json(response.content))


@dataclass(frozen=True)
class Dealt:
    """One message the simulator sent, and how the system answered it."""

    hand: int  # the hand's id, as the device API names it
    number: int | None  # the hand's number at its table, when the answer says it
    sequence: int
    hands: list[list[str]]
    status: int
    answer: dict[str, Any]

    @property
    def accepted(self) -> bool:
        return self.status in (200, 201)

    def lines(self) -> list[str]:
        """What was dealt, in words: a line per hand in dispense order, the dealer's last."""
        name = f"hand {self.number}" if self.number is not None else f"hand id {self.hand}"
        head = f"Sequence {self.sequence}, {name}: {len(self.hands)} hands dealt"
        if not self.accepted:
            error = self.answer.get("error") or {}
            head += f" — refused ({error.get('field', '?')}): {error.get('message', self.status)}"
        rows = [
            f"  {'dealer' if i == len(self.hands) else f'hand {i}'}: {' '.join(cards)}"
            for i, cards in enumerate(self.hands, start=1)
        ]
        return [head, *rows]


def shuffled_deck(rng: secrets.SystemRandom | None = None) -> list[str]:
    """A fresh 52-card deck, shuffled as a shuffler would: from the system's CSPRNG."""
    deck = list(CARD_NAMES)
    (rng or secrets.SystemRandom()).shuffle(deck)
    return deck


def deal_round(
    count: int, *, fault: str | None = None, deck: Sequence[str] = ()
) -> list[list[str]]:
    """``count`` seven-card hands from one shuffled deck (R1: no card twice), or a spoiled
    message when ``fault`` names one of ``FAULTS``."""
    cards = list(deck) or shuffled_deck()
    hands = [cards[HAND_SIZE * i : HAND_SIZE * (i + 1)] for i in range(count)]
    if fault == "repeated_card" and len(hands) >= 2:
        hands[-1][0] = hands[0][0]
    elif fault == "hand_short":
        hands = hands[:-1]
    elif fault is not None:
        raise SimulatorError(f"No such fault: {fault} (one of {', '.join(FAULTS)}).")
    return hands


class Simulator:
    """A shuffler at one table: the token says which (a device token is its table's only)."""

    def __init__(
        self,
        device: Device,
        *,
        poll: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.device = device
        self.poll = poll
        self.sleep = sleep
        self.clock = clock

    def waiting(self) -> dict[str, Any]:
        """The device's view of its table: the hand waiting for cards (or none), how many
        hands to dispense, the last sequence number the system holds from this device."""
        reply = self.device.get(WAITING_PATH)
        if reply.status != 200:
            raise SimulatorError(_refusal("Asking which hand waits for cards", reply))
        return reply.body

    def wait_for_hand(self, wait: float, *, deadline: float | None = None) -> dict[str, Any]:
        """Poll until a hand waits for cards, at most ``wait`` seconds (or until
        ``deadline``, on the clock, when a longer wait already began)."""
        deadline = self.clock() + wait if deadline is None else deadline
        while True:
            state = self.waiting()
            if state.get("hand") is not None:
                # The wagers are down once the spots stay as they are for a poll: a dealer
                # presses the shuffler's button then, not while a spot is being placed.
                self.sleep(self.poll)
                again = self.waiting()
                if _round(again) == _round(state):
                    return again
                continue
            if self.clock() >= deadline:
                raise SimulatorError(f"No hand waited for cards within {wait:g} s.")
            self.sleep(self.poll)

    def deal(self, *, wait: float = 60.0, fault: str | None = None) -> Dealt:
        """Wait for the next hand to await cards and deal it: one message. A hand that moved
        on meanwhile (409 ``hand``: dealt by hand, misdealt) is waited for again."""
        deadline = self.clock() + wait
        while True:
            state = self.wait_for_hand(wait, deadline=deadline)
            sequence = int(state.get("last_sequence") or 0) + 1
            hands = deal_round(int(state["hands"]), fault=fault)
            body = {"sequence": sequence, "hand": state["hand"], "hands": hands}
            reply = self.device.post(HANDS_PATH, body)
            if reply.status == 409 and _field(reply) == "hand" and self.clock() < deadline:
                self.sleep(self.poll)
                continue
            if reply.status >= 500 or reply.status in (401, 403):
                raise SimulatorError(_refusal("Posting the hands", reply))
            return Dealt(
                hand=int(state["hand"]),
                number=state.get("number"),
                sequence=sequence,
                hands=hands,
                status=reply.status,
                answer=reply.body,
            )

    def run(
        self,
        *,
        rounds: int = 1,
        wait: float = 60.0,
        fault: str | None = None,
        out: Callable[[str], None] = print,
    ) -> list[Dealt]:
        """Deal ``rounds`` hands one after the other, printing each as it goes."""
        dealt = []
        for _ in range(rounds):
            message = self.deal(wait=wait, fault=fault)
            for line in message.lines():
                out(line)
            dealt.append(message)
        return dealt


def _json(content: bytes) -> dict[str, Any]:
    try:
        body = json.loads(content or b"{}")
    except ValueError:
        return {"error": {"message": content[:200].decode(errors="replace"), "field": None}}
    return body if isinstance(body, dict) else {"body": body}


def _round(state: dict[str, Any]) -> tuple[Any, ...]:
    return state.get("hand"), tuple(state.get("seats") or ()), state.get("hands")


def _field(reply: Reply) -> str | None:
    error = reply.body.get("error")
    return error.get("field") if isinstance(error, dict) else None


def _refusal(doing: str, reply: Reply) -> str:
    error = reply.body.get("error")
    message = error.get("message") if isinstance(error, dict) else reply.body.get("detail")
    return f"{doing}: the server answered {reply.status}: {message or reply.body}"
