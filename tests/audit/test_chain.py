"""The audit log is hash-chained (R17), one chain per table, per cardroom and one
global: every service appends its event in its own transaction, each event follows
the one before in its chain, and ``verify_audit`` names the chain and the first place where
anything was changed, removed or cut off."""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import OperationalError, connection, transaction
from django.db.models import F

from audit import verification
from audit.chain import (
    GENESIS_HASH,
    LEGACY,
    canonical_json,
    chain_event_hash,
    chain_genesis,
    event_hash,
    heads_hash,
)
from audit.models import AuditEvent, ChainHead, Checkpoint
from audit.services import audit_checkpoint_record, audit_record
from audit.verification import verify_chain, verify_chains
from core.errors import Conflict, DomainError, PermissionDenied
from tables.models import RotationRecord, Table
from tables.services.configuration import table_create
from tables.services.seating import (
    seat_player,
    seating_come_back,
    seating_flag_proposition,
    seating_leave,
    seating_sit_out,
    seating_waive_dp,
)
from tables.services.sessions import table_close, table_dealer_change, table_open
from tables.services.setting_changes import (
    setting_change_approve,
    setting_change_propose,
    setting_change_reject,
    setting_change_withdraw,
)
from tables.services.stacks import stack_add, stack_cash_out
from tests import runtime_role
from tests.conftest import signed
from wagers import services
from wagers.models import Hand

from .support import T0, past_append_only, play_hand, verify_audit

with_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="DATABASE_URL is not PostgreSQL",
)

FIELDS = (
    "seq",
    "chain",
    "chain_seq",
    "occurred_at",
    "actor_id",
    "actor_name",
    "action",
    "object_type",
    "object_id",
    "payload",
    "prev_hash",
    "hash",
)


def last_seq() -> int:
    return AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first() or 0


def actions_since(seq: int) -> list[str]:
    return list(AuditEvent.objects.filter(seq__gt=seq).values_list("action", flat=True))


@pytest.fixture
def chain(dp_table, house_table, dp_players, house_players, dealer, supervisor, clock):
    """A chain of a few dozen events from many services, a settled hand on each table."""
    rng = random.Random(5)
    play_hand(dp_table, rng=rng, by=dealer, clock=clock, settle_at=clock.now + timedelta(minutes=2))
    play_hand(
        house_table, rng=rng, by=dealer, clock=clock, settle_at=clock.now + timedelta(minutes=2)
    )
    assert AuditEvent.objects.count() > 40
    return list(AuditEvent.objects.order_by("seq"))


# --- every change appends its event, in its own transaction ---------------------------------


def test_every_service_appends_its_event(
    cardroom, supervisor, second_supervisor, dealer, make_player, clock
):
    def step(call, *expected: str):
        before = last_seq()
        result = call()
        assert actions_since(before) == list(expected)
        return result

    table = step(
        lambda: table_create(
            cardroom=cardroom, name="T", banking="designated_player", by=supervisor
        ),
        "table.created",
    )
    change = step(
        lambda: setting_change_propose(
            table=table, values={"ante_min": "10"}, reason="busy night", by=supervisor
        ),
        "table.settings.change_proposed",
    )
    step(
        lambda: setting_change_approve(
            change=change, signature=signed(second_supervisor), by=second_supervisor
        ),
        "table.settings.change_approved",
    )
    step(lambda: table_open(table=table, dealer=dealer, by=supervisor), "table.opened")
    players = [step(lambda: make_player(), "player.created") for _ in range(3)]
    seatings = [
        step(
            lambda n=n, p=p: seat_player(table=table, seat=n, player=p, buy_in="500", by=dealer),
            "seat.taken",
            "stack.buy_in",
        )
        for n, p in zip((1, 3, 5), players, strict=True)
    ]
    step(
        lambda: stack_add(seating=seatings[0], amount="50", by=dealer),
        "stack.add_on",
    )
    step(
        lambda: seating_waive_dp(seating=seatings[2], waived=True, by=dealer),
        "seat.dp_waived",
    )
    hand = step(
        lambda: services.hand_start(table=table, by=dealer, draw_cards={1: "As", 3: "Kc"}),
        "rotation.offered",
        "stack.dp_bank",
        "hand.started",
    )
    assert hand.dp_seating.seat == 1
    for seating in seatings[1:]:
        step(
            lambda s=seating: services.wager_place(hand=hand, seating=s, ante="10", by=dealer),
            "stack.wager",
            "hand.wager_placed",
        )
    step(lambda: services.spot_declare_dead(hand=hand, seat=5, by=dealer), "hand.spot_dead")
    step(
        lambda: services.hand_cards_enter(
            hand=hand,
            dealer_cards="Ks 9s 4s 2c 7h 8c 3c",
            spot_cards={3: "Ah Th 6h 2h Jd 5c 9c"},
            by=dealer,
        ),
        "hand.dealt",
    )
    step(
        lambda: services.spot_decide(
            hand=hand, seat=3, decision="raise", raise_amount="10", by=dealer
        ),
        "stack.wager",
        "hand.decision",
    )
    step(lambda: services.hand_settle(hand=hand, by=dealer), "hand.settled")
    step(
        lambda: services.hand_correct(
            hand=hand,
            corrects=hand.settlements.latest("entry").pk,
            by=supervisor,
            reason="misread",
            dealer_cards="Kc Qc Tc 8c 4c 7d 3s",
        ),
        "hand.corrected",
    )
    step(
        lambda: seating_leave(seating=seatings[1], by=dealer),
        "stack.cash_out",
        "seat.left",
    )
    step(
        lambda: table_close(table=table, by=supervisor),
        *(["stack.cash_out", "seat.left"] * 2 + ["table.closed"]),
    )
    # Who did it and to what, as it was at the time.
    closed = AuditEvent.objects.get(seq=last_seq())
    assert (closed.actor_id, closed.actor_name) == (supervisor.pk, "supervisor")
    assert (closed.object_type, closed.object_id) == (
        "tables.tablesession",
        str(table.sessions.get().pk),
    )


def test_the_other_changes_append_their_events_too(
    cardroom, make_table, seat, supervisor, second_supervisor, dealer, make_user, clock
):
    def step(call, *expected: str):
        before = last_seq()
        result = call()
        assert actions_since(before) == list(expected)
        return result

    table = make_table("Other")
    one, three = seat(table, 1), seat(table, 3)
    relief = make_user("relief", role="Dealer")
    step(
        lambda: table_dealer_change(table=table, dealer=relief, by=supervisor),
        "table.dealer_changed",
    )
    step(
        lambda: table_dealer_change(table=table, dealer=dealer, by=supervisor),
        "table.dealer_changed",
    )
    step(lambda: seating_sit_out(seating=three, by=dealer), "seat.sat_out")
    step(lambda: seating_come_back(seating=three, by=dealer), "seat.came_back")
    step(
        lambda: seating_flag_proposition(seating=three, flagged=True, by=supervisor),
        "seat.proposition_flagged",
    )
    step(
        lambda: stack_cash_out(seating=one, amount="100", by=dealer),
        "stack.cash_out",
    )
    rejected = setting_change_propose(
        table=table, values={"ante_max": "50"}, reason="r", by=supervisor
    )
    step(
        lambda: setting_change_reject(change=rejected, by=second_supervisor),
        "table.settings.change_rejected",
    )
    withdrawn = setting_change_propose(
        table=table, values={"ante_max": "60"}, reason="r", by=supervisor
    )
    step(
        lambda: setting_change_withdraw(change=withdrawn, by=supervisor),
        "table.settings.change_withdrawn",
    )
    # A refusal of the position is recorded with the offer.
    hand = step(
        lambda: services.hand_start(table=table, by=dealer, refusals=(3,), draw_cards={1: "2c"}),
        "rotation.offered",
        "stack.dp_bank",
        "hand.started",
    )
    offered = json.loads(AuditEvent.objects.get(action="rotation.offered").payload)
    assert {o["seat"]: o["outcome"] for o in offered["offers"]} == {1: "accepted", 3: "refused"}
    # The bank goes back with the cancellation (its amount is in the hand.started event).
    step(lambda: services.hand_cancel(hand=hand, by=dealer), "hand.cancelled")
    hand = step(
        lambda: services.hand_start(table=table, by=dealer),
        "rotation.offered",
        "stack.dp_bank",
        "hand.started",
    )
    spot = three if hand.dp_seating.seat == 1 else one
    step(
        lambda: services.wager_place(hand=hand, seating=spot, ante="10", by=dealer),
        "stack.wager",
        "hand.wager_placed",
    )
    step(lambda: services.hand_deal(hand=hand, by=dealer), "hand.dealt")
    step(
        lambda: services.hand_declare_misdeal(hand=hand, reason="shuffler_fault", by=dealer),
        "hand.misdeal",
    )
    # When nobody accepts the position, no hand starts, but the offer is kept (R16).
    seating_waive_dp(seating=one, waived=True, by=dealer)
    seating_waive_dp(seating=three, waived=True, by=dealer)
    before = last_seq()
    with pytest.raises(Conflict, match="No seat accepts"):
        services.hand_start(table=table, by=dealer)
    assert actions_since(before) == ["rotation.offered"]
    assert verify_audit()[0] == 0


def test_a_refused_service_call_leaves_no_event_and_no_change(
    dp_table, dp_players, dealer, supervisor, cardroom, refusal
):
    before, hands, records = last_seq(), Hand.objects.count(), RotationRecord.objects.count()
    with refusal(PermissionDenied, field=None, says="Only a floor supervisor may create a table"):
        table_create(cardroom=cardroom, name="X", banking="house", by=dealer)
    player = dp_players[2].player
    with refusal(Conflict, field="seat", says="Seat 1 at DP table is taken"):
        seat_player(table=dp_table, seat=1, player=player, by=dealer)
    # The rotation recorded its offer and audited it before the bank was refused: all of it
    # rolls back with the refusal.
    with refusal(DomainError, field="dp_bank", says="bank must be between") as refused:
        services.hand_start(table=dp_table, by=dealer, dp_bank="5000", draw_cards=None)
    assert "bank" in refused.value.message
    assert last_seq() == before
    change = setting_change_propose(
        table=dp_table, values={"ante_max": "50"}, reason="r", by=supervisor
    )
    before = last_seq()
    with refusal(PermissionDenied, field=None, says="different floor supervisor"):
        setting_change_approve(change=change, signature=signed(supervisor), by=supervisor)
    assert last_seq() == before
    assert Hand.objects.count() == hands and RotationRecord.objects.count() == records
    assert Table.objects.filter(name="X").count() == 0
    change.refresh_from_db()
    assert change.status == "pending"


def test_when_the_event_cannot_be_written_the_change_is_not_made_either(
    cardroom, supervisor, monkeypatch
):
    def broken(**fields):
        raise RuntimeError("the audit log is unavailable")

    monkeypatch.setattr("audit.appends.chain_event_hash", broken)
    with pytest.raises(RuntimeError, match="unavailable"):
        table_create(cardroom=cardroom, name="Never", banking="designated_player", by=supervisor)
    assert not Table.objects.filter(name="Never").exists()


@pytest.mark.django_db(transaction=True)
def test_audit_record_refuses_to_write_outside_the_changes_transaction():
    with pytest.raises(RuntimeError, match="inside the transaction"):
        audit_record(actor=None, action="test.outside")
    assert not AuditEvent.objects.exists()


# --- the chains ------------------------------------------------------------------------------

HASHED = [f for f in FIELDS if f != "hash"]


def in_chain(name: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(chain=name).order_by("chain_seq"))


def test_events_go_on_their_tables_chain_each_following_the_one_before(
    chain, dp_table, house_table, cardroom
):
    names = set(AuditEvent.objects.values_list("chain", flat=True))
    assert {f"table:{dp_table.pk}", f"table:{house_table.pk}", f"cardroom:{cardroom.pk}"} <= names
    hands = AuditEvent.objects.filter(object_type="wagers.hand")
    assert {e.chain for e in hands} == {f"table:{dp_table.pk}", f"table:{house_table.pk}"}
    for name in names:
        previous = chain_genesis(name)
        events = in_chain(name)
        for place, event in enumerate(events, start=1):
            assert event.chain_seq == place
            assert event.prev_hash == previous
            assert event.hash == chain_event_hash(**{f: getattr(event, f) for f in HASHED})
            previous = event.hash
        head = ChainHead.objects.get(chain=name)
        assert (head.seq, head.hash) == (len(events), events[-1].hash)
    # The numbers across chains are unique and follow the order of appends.
    assert [e.seq for e in chain] == sorted({e.seq for e in chain})


def test_each_chain_starts_from_its_own_genesis():
    assert chain_genesis(LEGACY) == GENESIS_HASH
    geneses = {chain_genesis(n) for n in ("table:1", "table:2", "cardroom:1", "global")}
    assert len(geneses) == 4 and GENESIS_HASH not in geneses


def test_payloads_are_canonical_json_with_money_as_strings(chain):
    for event in chain:
        assert canonical_json(json.loads(event.payload)) == event.payload
    buy_in = next(e for e in chain if e.action == "stack.buy_in")
    assert json.loads(buy_in.payload)["amount"] == "1000.00"
    assert canonical_json({"b": Decimal("5"), "a": Decimal("1.5")}) == '{"a":"1.50","b":"5.00"}'


LEGACY_FIELDS = {
    "seq": 7,
    "occurred_at": T0,
    "actor_id": 3,
    "actor_name": "dealer",
    "action": "hand.settled",
    "object_type": "wagers.hand",
    "object_id": "12",
    "payload": '{"a":"1.00"}',
    "prev_hash": "a" * 64,
}
CHANGED = {
    "chain": "table:2",
    "chain_seq": 5,
    "seq": 8,
    "occurred_at": T0 + timedelta(microseconds=1),
    "actor_id": None,
    "actor_name": "dealer2",
    "action": "hand.misdeal",
    "object_type": "wagers.spot",
    "object_id": "13",
    "payload": '{"a":"1.01"}',
    "prev_hash": "b" * 64,
}


def test_the_hash_covers_every_stored_field():
    fields = {"chain": "table:1", "chain_seq": 4, **LEGACY_FIELDS}
    original = chain_event_hash(**fields)
    for name, value in CHANGED.items():
        assert chain_event_hash(**(fields | {name: value})) != original, name
    # The legacy format is unchanged: the same bytes as before chains per table.
    legacy = event_hash(**LEGACY_FIELDS)
    record = [7, T0.isoformat(), 3, "dealer", "hand.settled", "wagers.hand", "12", '{"a":"1.00"}']
    expected = hashlib.sha256(
        json.dumps([*record, "a" * 64], separators=(",", ":")).encode()
    ).hexdigest()
    assert legacy == expected
    for name, value in CHANGED.items():
        if name in LEGACY_FIELDS:
            assert event_hash(**(LEGACY_FIELDS | {name: value})) != legacy, name


def test_verify_audit_prints_the_events_and_the_heads_hash_and_exits_0_on_good_chains(chain):
    status, out = verify_audit("--full")
    assert status == 0, out
    heads = [list(h) for h in ChainHead.objects.values_list("chain", "seq", "hash")]
    chains = len(heads)
    first = out.splitlines()[0]
    assert first.startswith(
        f"OK: {len(chain)} events in {chains} chains; head #{chain[-1].seq} {heads_hash(heads)}"
    ), out
    # No checkpoint yet: every event is at risk.
    assert f"At risk: {len(chain)} events" in out
    assert f"#{chain[0].seq} to #{chain[-1].seq}" in out


@pytest.mark.django_db
def test_verify_audit_accepts_an_empty_log():
    status, out = verify_audit()
    assert status == 0, out
    assert out.startswith("OK: 0 events")


# --- tampering -------------------------------------------------------------------------------


def tampered_value(event: AuditEvent, field: str, other_user_id: int):
    """A different value for one stored field of ``event``."""
    if field in ("seq", "chain_seq"):
        return F(field) + 1_000_000
    if field == "occurred_at":
        return event.occurred_at + timedelta(seconds=1)
    if field == "actor_id":
        return other_user_id if event.actor_id != other_user_id else None
    if field == "payload":
        return canonical_json({**json.loads(event.payload), "amount": "0.01"})
    if field in ("prev_hash", "hash"):
        return "f" * 64
    return getattr(event, field) + "-x"


def positions(chain: list[AuditEvent]) -> dict[str, AuditEvent]:
    """The first, a middle and the last event of the first table's chain."""
    table = next(e.chain for e in chain if e.chain.startswith("table:"))
    events = in_chain(table)
    return {"first": events[0], "middle": events[len(events) // 2], "last": events[-1]}


@pytest.mark.parametrize("position", ["first", "middle", "last"])
@pytest.mark.parametrize("field", FIELDS)
def test_changing_any_field_of_any_event_is_detected_at_that_event(chain, auditor, field, position):
    target = positions(chain)[position]
    assert verify_audit("--full")[0] == 0
    with past_append_only():
        changed = AuditEvent.objects.filter(pk=target.pk).update(
            **{field: tampered_value(target, field, auditor.pk)}
        )
    assert changed == 1
    status, out = verify_audit("--full")
    assert status == 1
    assert out.startswith(f"BROKEN at #{target.chain_seq}: chain {target.chain}:"), out
    report = verify_chain()
    assert (report.ok, report.broken_seq, report.head_seq, report.chain) == (
        False,
        target.chain_seq,
        target.chain_seq - 1,
        target.chain,
    )


def test_removing_an_event_from_the_middle_is_detected_at_its_place(chain):
    gone = positions(chain)["middle"]
    with past_append_only():
        AuditEvent.objects.filter(pk=gone.pk).delete()
    status, out = verify_audit("--full")
    assert status == 1
    expected = f"BROKEN at #{gone.chain_seq}: chain {gone.chain}: event {gone.chain_seq} is missing"
    assert out.startswith(expected), out


def cut_tail(name: str, keep: int) -> None:
    with past_append_only():
        AuditEvent.objects.filter(chain=name, chain_seq__gt=keep).delete()


def test_a_cut_off_tail_is_detected_against_the_chain_head(chain):
    last = positions(chain)["last"]
    cut_tail(last.chain, last.chain_seq - 3)
    status, out = verify_audit("--full")
    assert status == 1
    assert out.startswith(f"BROKEN at #{last.chain_seq - 2}: chain {last.chain}:"), out
    assert f"the chain ends before its head #{last.chain_seq}" in out


def test_a_head_row_that_disagrees_with_its_event_is_detected_at_that_event(chain):
    last = positions(chain)["last"]
    ChainHead.objects.filter(chain=last.chain).update(hash="e" * 64)
    status, out = verify_audit("--full")
    assert status == 1
    assert out.startswith(f"BROKEN at #{last.chain_seq}: chain {last.chain}: it differs"), out


def test_a_cut_off_tail_with_a_rewritten_head_is_detected_against_the_checkpoint(
    chain, make_player
):
    checkpoint = audit_checkpoint_record()
    assert checkpoint is not None and checkpoint.seq == chain[-1].seq
    for _ in range(3):
        make_player()
    assert verify_audit()[0] == 0
    # The attacker cuts a table's tail back past the checkpoint and rewrites its head to match.
    last = positions(chain)["last"]
    keep = in_chain(last.chain)[-3]
    cut_tail(last.chain, keep.chain_seq)
    ChainHead.objects.filter(chain=last.chain).update(seq=keep.chain_seq, hash=keep.hash)
    for mode in ((), ("--full",)):
        status, out = verify_audit(*mode)
        assert status == 1, out
        assert out.startswith(f"BROKEN at #{keep.chain_seq + 1}: chain {last.chain}:"), out
    # The periodic task records no checkpoint over it.
    assert audit_checkpoint_record() is None


def test_deleting_a_whole_chain_is_detected_by_the_checkpoint_heads(chain, house_table):
    assert audit_checkpoint_record() is not None
    name = f"table:{house_table.pk}"
    with past_append_only():
        AuditEvent.objects.filter(chain=name).delete()
    ChainHead.objects.filter(chain=name).delete()
    for mode in ((), ("--full",)):
        status, out = verify_audit(*mode)
        assert status == 1, out
        assert f"chain {name}:" in out.splitlines()[0], out


def test_a_rewritten_and_rehashed_chain_is_detected_against_the_checkpoint(chain):
    audit_checkpoint_record()
    # The attacker changes an event and recomputes every hash after it in its chain, and the head.
    victim = positions(chain)["middle"]
    events = in_chain(victim.chain)
    with past_append_only():
        previous = events[victim.chain_seq - 2].hash if victim.chain_seq > 1 else None
        for event in events[victim.chain_seq - 1 :]:
            if event.pk == victim.pk:
                event.actor_name = "nobody"
            event.prev_hash = previous or event.prev_hash
            event.hash = chain_event_hash(**{f: getattr(event, f) for f in HASHED})
            AuditEvent.objects.filter(pk=event.pk).update(
                actor_name=event.actor_name, prev_hash=event.prev_hash, hash=event.hash
            )
            previous = event.hash
    ChainHead.objects.filter(chain=victim.chain).update(hash=previous)
    status, out = verify_audit("--full")
    assert status == 1
    assert out.startswith(f"BROKEN at #{events[-1].chain_seq}: chain {victim.chain}: it differs"), (
        out
    )


def test_verify_audit_refuses_an_unreadable_checkpoints_file(chain, tmp_path):
    from django.core.management.base import CommandError

    (tmp_path / "bad.jsonl").write_text('{"seq": 1}\n')
    with pytest.raises(CommandError, match="--checkpoints"):
        verify_audit("--checkpoints", str(tmp_path / "bad.jsonl"))
    with pytest.raises(CommandError, match="--checkpoints"):
        verify_audit("--checkpoints", str(tmp_path / "missing.jsonl"))


# --- the legacy chain: events from before chains per table -----------------------------------


def write_legacy_events(count: int) -> list[AuditEvent]:
    """Events as the single chain wrote them before chains per table (format 1, numbered 1, 2, ...),
    with its head, as the migration leaves them."""
    previous, events = GENESIS_HASH, []
    with past_append_only():
        for seq in range(1, count + 1):
            fields = {
                "seq": seq,
                "occurred_at": T0 + timedelta(seconds=seq),
                "actor_id": None,
                "actor_name": "",
                "action": "table.created",
                "object_type": "tables.table",
                "object_id": str(seq),
                "payload": canonical_json({"n": seq}),
                "prev_hash": previous,
            }
            previous = event_hash(**fields)
            events.append(AuditEvent.objects.create(chain=LEGACY, hash=previous, **fields))
    ChainHead.objects.update_or_create(chain=LEGACY, defaults={"seq": count, "hash": previous})
    if connection.vendor == "postgresql":  # moving a sequence is its owner's (a restore's)
        with runtime_role.as_owner(), connection.cursor() as cursor:
            cursor.execute("SELECT setval('audit_event_seq', %s)", [count])
    return events


@pytest.mark.django_db
def test_old_events_stay_verifiable_as_the_legacy_chain_beside_the_new_chains(request):
    old = write_legacy_events(12)
    make_player = request.getfixturevalue("make_player")  # its cardroom after the old events
    for _ in range(3):
        make_player()
    new = AuditEvent.objects.exclude(chain=LEGACY).order_by("seq")
    assert new.count() == 5 and all(e.seq > old[-1].seq for e in new)  # the cardroom: 2, players
    status, out = verify_audit("--full")
    assert status == 0, out
    assert out.startswith(f"OK: {12 + 5} events in ")
    # The legacy chain is closed: nothing is appended to it.
    with pytest.raises(ValueError, match="closed"), transaction.atomic():
        audit_record(actor=None, action="test.legacy", chain=LEGACY)
    # Tampering with an old event is found at its number.
    with past_append_only():
        AuditEvent.objects.filter(seq=5).update(actor_name="someone")
    status, out = verify_audit("--full")
    assert status == 1
    assert out.startswith("BROKEN at #5: the legacy chain: its content does not match its hash")


@pytest.mark.django_db
def test_a_checkpoint_of_the_single_chain_still_catches_a_cut_off_legacy_tail():
    old = write_legacy_events(8)
    with past_append_only():
        Checkpoint.objects.create(seq=8, hash=old[-1].hash, verified_at=T0, events=8)
    assert verify_audit("--full")[0] == 0
    cut = old[5]
    with past_append_only():
        AuditEvent.objects.filter(chain=LEGACY, seq__gt=cut.seq).delete()
    ChainHead.objects.filter(chain=LEGACY).update(seq=cut.seq, hash=cut.hash)
    status, out = verify_audit("--full")
    assert status == 1
    assert "BROKEN at #8: event #8 of an exported checkpoint is missing" in out, out


# --- appends under concurrency ---------------------------------------------------------------


def test_two_tables_appends_lock_different_head_rows(chain, dp_table, house_table):
    heads = ChainHead.objects.filter(chain__in=[f"table:{t.pk}" for t in (dp_table, house_table)])
    assert heads.count() == 2 and len({h.pk for h in heads}) == 2


def test_an_event_committed_after_the_heads_are_read_is_no_break(chain, monkeypatch, dp_table):
    """A writer that commits just after the verification read the heads appends beyond them:
    the verification stops at the heads it read and the chain holds."""
    real = ChainHead.objects

    class Heads:
        def values_list(self, *fields):
            rows = list(real.values_list(*fields))
            with transaction.atomic():
                audit_record(actor=None, action="test.concurrent", target=dp_table)
            return rows

    class PatchedHead:
        objects = Heads()

    monkeypatch.setattr(verification, "ChainHead", PatchedHead)
    report = verify_chain()
    assert report.ok, report
    monkeypatch.setattr(verification, "ChainHead", ChainHead)
    assert verify_chain().ok


with_postgres_db = pytest.mark.django_db(transaction=True)


@with_postgres
@with_postgres_db
def test_holding_one_tables_head_does_not_block_another_tables_append(dp_table, house_table):
    """Chains per table: another connection holds the DP table's chain head (mid-append,
    uncommitted); an append to the house table's chain goes through under a 2 s lock timeout, while
    one to the DP table's own chain times out waiting for it."""
    held, release, done = threading.Event(), threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                audit_record(actor=None, action="test.hold", target=dp_table)
                held.set()
                release.wait(timeout=30)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()
            done.set()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(timeout=30)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            event = audit_record(actor=None, action="test.other", target=house_table)
        assert event.chain == f"table:{house_table.pk}"
        with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '300ms'")
            audit_record(actor=None, action="test.same", target=dp_table)
    finally:
        release.set()
        holder.join(timeout=30)
    assert not errors, errors
    assert verify_chain().ok


@with_postgres
@with_postgres_db
def test_concurrent_writers_never_fork_a_chain(cardroom, dp_table, house_table, dealer):
    threads, appends = 8, 15
    barrier = threading.Barrier(threads + 1)
    errors: list[BaseException] = []
    reports = []
    done = threading.Event()
    targets = [dp_table, house_table, cardroom, None]

    def write(number: int) -> None:
        try:
            barrier.wait()
            for i in range(appends):
                with transaction.atomic():
                    audit_record(
                        actor=None,
                        action="test.concurrent",
                        target=targets[(number + i) % len(targets)],
                        payload={"n": i},
                    )
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    def verify_while_writing() -> None:
        try:
            barrier.wait()
            while not done.is_set():
                reports.append(verify_chain())
        finally:
            connection.close()

    before = AuditEvent.objects.count()
    workers = [threading.Thread(target=write, args=(n,)) for n in range(threads)]
    checker = threading.Thread(target=verify_while_writing)
    for thread in [*workers, checker]:
        thread.start()
    for thread in workers:
        thread.join(timeout=120)
    done.set()
    checker.join(timeout=120)
    assert not errors, errors
    assert AuditEvent.objects.count() == before + threads * appends
    for name in set(AuditEvent.objects.values_list("chain", flat=True)):
        places = list(in_chain(name))
        assert [e.chain_seq for e in places] == list(range(1, len(places) + 1))
        assert len({e.prev_hash for e in places}) == len(places)
    seqs = list(AuditEvent.objects.values_list("seq", flat=True))
    assert len(set(seqs)) == len(seqs)
    assert verify_chain().ok
    assert reports and all(r.ok for r in reports), [r for r in reports if not r.ok][:3]


@with_postgres
@with_postgres_db
def test_parallel_verification_in_processes_finds_what_one_process_finds(cardroom, make_table):
    tables = [make_table(f"T{n}") for n in range(4)]
    for i in range(40):
        with transaction.atomic():
            audit_record(actor=None, action="test.parallel", target=tables[i % 4], payload={"i": i})
    one, many = verify_chains(full=True, workers=1), verify_chains(full=True, workers=2)
    assert one.ok and many.ok
    assert (many.events, many.chains, many.head_hash) == (one.events, one.chains, one.head_hash)
    victim = in_chain(f"table:{tables[2].pk}")[5]
    with past_append_only():
        AuditEvent.objects.filter(pk=victim.pk).update(payload='{"i":-1}')
    report = verify_chains(full=True, workers=2)
    assert (report.ok, report.chain, report.broken_seq) == (False, victim.chain, victim.chain_seq)


@pytest.mark.parametrize(
    "text",
    ["plain", 'quote " and \\ backslash', "tab\t newline\n nul\x00", "é ñ 漢字 😀", "", "/</>"],
)
def test_the_fast_record_text_is_the_canonical_json_of_the_record(text):
    """The verification's hot path writes the records itself: the same bytes as
    ``canonical_json``, for any string in any field, so the hashes cannot differ."""
    from audit.chain import legacy_record_text, record_text

    when = (T0 + timedelta(microseconds=5)).isoformat()
    for actor in (None, 12):
        fields = [text, 3, 9, when, actor, text, text, text, text, text, "a" * 64]
        assert record_text(*fields) == canonical_json(fields)
        legacy = [9, when, actor, text, text, text, text, text, "b" * 64]
        assert legacy_record_text(*legacy) == canonical_json(legacy)
