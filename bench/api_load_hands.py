"""The hands ``bench.api_load`` plays: one thread per table, each hand in five requests with its
table's dealer token, at a house-banked or a designated-player table (R12-R16: the rotation
names the DP at each start, whose seat then places no wager), with the system's deal or with
cards the client drew itself and enters as a dealer or a card-reading shuffler does. Also the
minimal DRF insert view's load, for the ratio."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field

#: Every card's name (engine.cards' ranks and suits): the client's own deck.
CARDS = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
ANTE = "5"


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    hands: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Client:
    """One keep-alive connection; each POST its own Idempotency-Key, as a device sends it."""

    def __init__(self, port: int, token: str | None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Token {token}"
        self.latencies: list[float] = []

    def post(self, path: str, body: object) -> dict:
        started = time.perf_counter()
        keyed = {**self.headers, "Idempotency-Key": uuid.uuid4().hex}
        self.conn.request("POST", path, json.dumps(body), keyed)
        response = self.conn.getresponse()
        data = response.read()
        self.latencies.append(time.perf_counter() - started)
        if response.status >= 300:
            raise RuntimeError(f"{path}: {response.status} {data[:300]!r}")
        return json.loads(data) if data else {}


def drawn_cards(seats: list[int]) -> tuple[str, dict[str, str]]:
    """Seven cards for the dealer and for each spot, none shared (R1), from a shuffled deck."""
    deck = random.sample(CARDS, 7 * (len(seats) + 1))
    hands = [" ".join(deck[i : i + 7]) for i in range(0, len(deck), 7)]
    return hands[0], {str(seat): hands[i] for i, seat in enumerate(seats, 1)}


def play_hand(client: Client, table: dict, spots: int, cards: str) -> None:
    """Start (the rotation names the DP at a DP table), all wagers, the deal or the cards
    entered, all decisions (half the spots raise), settle."""
    hand = client.post(f"/api/v1/tables/{table['table']}/hands/", {})
    url = f"/api/v1/hands/{hand['id']}"
    seats = [seat for seat in sorted(table["seatings"]) if seat != hand.get("dp_seat")][:spots]
    wagers = [{"seating": table["seatings"][seat], "ante": ANTE} for seat in seats]
    client.post(f"{url}/wagers/batch/", {"spots": wagers})
    if cards == "entered":
        dealer_cards, spot_cards = drawn_cards(seats)
        client.post(f"{url}/cards/", {"dealer_cards": dealer_cards, "spot_cards": spot_cards})
    else:
        client.post(f"{url}/deal/", {})
    decisions = [
        {"seat": seat, "decision": "raise", "raise_amount": ANTE}
        if i % 2 == 0
        else {"seat": seat, "decision": "fold"}
        for i, seat in enumerate(seats)
    ]
    client.post(f"{url}/decisions/batch/", {"spots": decisions})
    client.post(f"{url}/settle/", {})


def play_table(port: int, table: dict, spots: int, cards: str, until: float, stats: Stats) -> None:
    client = Client(port, table["token"])
    hands = 0
    try:
        while time.perf_counter() < until:
            play_hand(client, table, spots, cards)
            hands += 1
    except Exception as error:  # noqa: BLE001 - reported with the figures
        with stats.lock:
            stats.errors.append(repr(error))
    with stats.lock:
        stats.latencies.extend(client.latencies)
        stats.hands += hands


def insert_requests(port: int, until: float, stats: Stats) -> None:
    """The minimal DRF view: one INSERT a request (``bench.minimal_urls``)."""
    client = Client(port, None)
    done = 0
    try:
        while time.perf_counter() < until:
            client.post("/insert/", {"note": "bench"})
            done += 1
    except Exception as error:  # noqa: BLE001 - reported with the figures
        with stats.lock:
            stats.errors.append(repr(error))
    with stats.lock:
        stats.latencies.extend(client.latencies)
        stats.hands += done  # requests, for this load


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run_threads(targets: list[tuple], seconds: float) -> tuple[Stats, float]:
    """Each ``(function, *args)`` in a thread of its own until ``seconds`` have passed; each
    function takes ``until`` and the shared stats after its own arguments."""
    stats = Stats()
    started = time.perf_counter()
    until = started + seconds
    threads = [threading.Thread(target=f, args=(*args, until, stats)) for f, *args in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return stats, time.perf_counter() - started
