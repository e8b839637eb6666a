"""The audit log is a hash chain (issue 5, R17): every service appends its event in its own
transaction, each event follows the one before, and ``verify_audit`` names the first event
where anything was changed, removed or cut off."""

from __future__ import annotations

import json
import os
import random
import threading
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.db.models import F

from audit import verification
from audit.chain import GENESIS_HASH, canonical_json, event_hash
from audit.models import AuditEvent, ChainHead, Checkpoint
from audit.services import audit_checkpoint_record, audit_record
from audit.verification import verify_chain
from cardroom.kernel.errors import Conflict, DomainError, PermissionDenied
from tables import services as table_services
from tables.models import RotationRecord, Table
from wagers import services
from wagers.models import Hand

from .support import T0, past_append_only, play_hand, verify_audit

with_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="DATABASE_URL is not PostgreSQL",
)

FIELDS = (
    "seq",
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
        lambda: table_services.table_create(
            cardroom=cardroom, name="T", banking="designated_player", by=supervisor
        ),
        "table.created",
    )
    change = step(
        lambda: table_services.setting_change_propose(
            table=table, values={"ante_min": "10"}, reason="busy night", by=supervisor
        ),
        "table.settings.change_proposed",
    )
    step(
        lambda: table_services.setting_change_approve(change=change, by=second_supervisor),
        "table.settings.change_approved",
    )
    step(
        lambda: table_services.table_open(table=table, dealer=dealer, by=supervisor), "table.opened"
    )
    players = [step(lambda: make_player(), "player.created") for _ in range(3)]
    seatings = [
        step(
            lambda n=n, p=p: table_services.seat_player(
                table=table, seat=n, player=p, buy_in="500", by=dealer
            ),
            "seat.taken",
            "stack.buy_in",
        )
        for n, p in zip((1, 3, 5), players, strict=True)
    ]
    step(
        lambda: table_services.stack_add(seating=seatings[0], amount="50", by=dealer),
        "stack.add_on",
    )
    step(
        lambda: table_services.seating_waive_dp(seating=seatings[2], waived=True, by=dealer),
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
            hand=hand, by=supervisor, reason="misread", dealer_cards="Kc Qc Tc 8c 4c 7d 3s"
        ),
        "hand.corrected",
    )
    step(
        lambda: table_services.seating_leave(seating=seatings[1], by=dealer),
        "stack.cash_out",
        "seat.left",
    )
    step(
        lambda: table_services.table_close(table=table, by=supervisor),
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
        lambda: table_services.table_dealer_change(table=table, dealer=relief, by=supervisor),
        "table.dealer_changed",
    )
    step(
        lambda: table_services.table_dealer_change(table=table, dealer=dealer, by=supervisor),
        "table.dealer_changed",
    )
    step(lambda: table_services.seating_sit_out(seating=three, by=dealer), "seat.sat_out")
    step(lambda: table_services.seating_come_back(seating=three, by=dealer), "seat.came_back")
    step(
        lambda: table_services.seating_flag_proposition(seating=three, flagged=True, by=supervisor),
        "seat.proposition_flagged",
    )
    step(
        lambda: table_services.stack_cash_out(seating=one, amount="100", by=dealer),
        "stack.cash_out",
    )
    rejected = table_services.setting_change_propose(
        table=table, values={"ante_max": "50"}, reason="r", by=supervisor
    )
    step(
        lambda: table_services.setting_change_reject(change=rejected, by=second_supervisor),
        "table.settings.change_rejected",
    )
    withdrawn = table_services.setting_change_propose(
        table=table, values={"ante_max": "60"}, reason="r", by=supervisor
    )
    step(
        lambda: table_services.setting_change_withdraw(change=withdrawn, by=supervisor),
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
    table_services.seating_waive_dp(seating=one, waived=True, by=dealer)
    table_services.seating_waive_dp(seating=three, waived=True, by=dealer)
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
        table_services.table_create(cardroom=cardroom, name="X", banking="house", by=dealer)
    player = dp_players[2].player
    with refusal(Conflict, field="seat", says="Seat 1 at DP table is taken"):
        table_services.seat_player(table=dp_table, seat=1, player=player, by=dealer)
    # The rotation recorded its offer and audited it before the bank was refused: all of it
    # rolls back with the refusal.
    with refusal(DomainError, field="dp_bank", says="bank must be between") as refused:
        services.hand_start(table=dp_table, by=dealer, dp_bank="5000", draw_cards=None)
    assert "bank" in refused.value.message
    assert last_seq() == before
    change = table_services.setting_change_propose(
        table=dp_table, values={"ante_max": "50"}, reason="r", by=supervisor
    )
    before = last_seq()
    with refusal(PermissionDenied, field=None, says="different floor supervisor"):
        table_services.setting_change_approve(change=change, by=supervisor)
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

    monkeypatch.setattr("audit.services.event_hash", broken)
    with pytest.raises(RuntimeError, match="unavailable"):
        table_services.table_create(
            cardroom=cardroom, name="Never", banking="designated_player", by=supervisor
        )
    assert not Table.objects.filter(name="Never").exists()


@pytest.mark.django_db(transaction=True)
def test_audit_record_refuses_to_write_outside_the_changes_transaction():
    with pytest.raises(RuntimeError, match="inside the transaction"):
        audit_record(actor=None, action="test.outside")
    assert not AuditEvent.objects.exists()


# --- the chain -------------------------------------------------------------------------------


def test_each_event_follows_the_one_before_and_hashes_its_own_content(chain):
    previous = GENESIS_HASH
    for number, event in enumerate(chain, start=1):
        assert event.seq == number
        assert event.prev_hash == previous
        assert event.hash == event_hash(
            seq=event.seq,
            occurred_at=event.occurred_at,
            actor_id=event.actor_id,
            actor_name=event.actor_name,
            action=event.action,
            object_type=event.object_type,
            object_id=event.object_id,
            payload=event.payload,
            prev_hash=event.prev_hash,
        )
        assert len(event.hash) == 64 and int(event.hash, 16) >= 0
        previous = event.hash
    head = ChainHead.objects.get(pk=1)
    assert (head.seq, head.hash) == (chain[-1].seq, chain[-1].hash)


def test_payloads_are_canonical_json_with_money_as_strings(chain):
    for event in chain:
        assert canonical_json(json.loads(event.payload)) == event.payload
    buy_in = next(e for e in chain if e.action == "stack.buy_in")
    assert json.loads(buy_in.payload)["amount"] == "1000.00"
    assert canonical_json({"b": Decimal("5"), "a": Decimal("1.5")}) == '{"a":"1.50","b":"5.00"}'


def test_the_hash_covers_every_stored_field():
    fields = {
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
    original = event_hash(**fields)
    changed = {
        "seq": 8,
        "occurred_at": fields["occurred_at"] + timedelta(microseconds=1),
        "actor_id": None,
        "actor_name": "dealer2",
        "action": "hand.misdeal",
        "object_type": "wagers.spot",
        "object_id": "13",
        "payload": '{"a":"1.01"}',
        "prev_hash": "b" * 64,
    }
    for name, value in changed.items():
        assert event_hash(**(fields | {name: value})) != original, name


def test_verify_audit_prints_the_head_and_exits_0_on_a_good_chain(chain):
    status, out = verify_audit()
    assert status == 0, out
    head = chain[-1]
    assert out.strip() == f"OK: {len(chain)} events; head #{head.seq} {head.hash}"


@pytest.mark.django_db
def test_verify_audit_accepts_an_empty_chain():
    status, out = verify_audit()
    assert status == 0
    assert f"head #0 {GENESIS_HASH}" in out


# --- tampering -------------------------------------------------------------------------------


def tampered_value(event: AuditEvent, field: str, other_user_id: int):
    """A different value for one stored field of ``event``."""
    if field == "seq":
        return F("seq") + 1_000_000
    if field == "occurred_at":
        return event.occurred_at + timedelta(seconds=1)
    if field == "actor_id":
        return other_user_id if event.actor_id != other_user_id else None
    if field == "payload":
        return canonical_json({**json.loads(event.payload), "amount": "0.01"})
    if field in ("prev_hash", "hash"):
        return "f" * 64
    return getattr(event, field) + "-x"


@pytest.mark.parametrize("position", ["first", "middle", "last"])
@pytest.mark.parametrize("field", FIELDS)
def test_changing_any_field_of_any_event_is_detected_at_that_event(chain, auditor, field, position):
    target = {"first": chain[0], "middle": chain[len(chain) // 2], "last": chain[-1]}[position]
    assert verify_audit()[0] == 0
    with past_append_only():
        changed = AuditEvent.objects.filter(pk=target.pk).update(
            **{field: tampered_value(target, field, auditor.pk)}
        )
    assert changed == 1
    status, out = verify_audit()
    assert status == 1
    assert out.startswith(f"BROKEN at #{target.seq}:"), out
    report = verify_chain()
    assert (report.ok, report.broken_seq, report.head_seq) == (False, target.seq, target.seq - 1)


def test_removing_an_event_from_the_middle_is_detected_at_its_number(chain):
    gone = chain[len(chain) // 2]
    with past_append_only():
        AuditEvent.objects.filter(pk=gone.pk).delete()
    status, out = verify_audit()
    assert status == 1
    assert out.startswith(f"BROKEN at #{gone.seq}: event {gone.seq} is missing"), out


def cut_tail(after: int) -> None:
    with past_append_only():
        AuditEvent.objects.filter(seq__gt=after).delete()


def test_a_cut_off_tail_is_detected_against_the_chain_head(chain):
    keep = chain[-4]
    cut_tail(keep.seq)
    status, out = verify_audit()
    assert status == 1
    assert out.startswith(f"BROKEN at #{keep.seq + 1}:"), out
    assert f"head #{chain[-1].seq}" in out


def test_a_head_row_that_disagrees_with_its_event_is_detected_at_that_event(chain):
    ChainHead.objects.filter(pk=1).update(hash="e" * 64)
    status, out = verify_audit()
    assert status == 1
    assert out.startswith(f"BROKEN at #{chain[-1].seq}: it differs from the chain head"), out


def export_checkpoints(path) -> None:
    """Keep the recorded checkpoints elsewhere, as JSON lines."""
    path.write_text(
        "".join(
            json.dumps({"seq": c.seq, "hash": c.hash}) + "\n"
            for c in Checkpoint.objects.order_by("seq")
        )
    )


def test_a_cut_off_tail_with_a_rewritten_head_is_detected_against_an_exported_checkpoint(
    chain, tmp_path, dealer, make_player
):
    checkpoint = audit_checkpoint_record()
    assert checkpoint is not None and checkpoint.seq == chain[-1].seq
    export_checkpoints(tmp_path / "checkpoints.jsonl")
    for _ in range(3):
        make_player()
    assert verify_audit("--checkpoints", str(tmp_path / "checkpoints.jsonl"))[0] == 0
    # The attacker cuts the tail back past the checkpoint and rewrites the head row to match.
    keep = chain[-5]
    cut_tail(keep.seq)
    ChainHead.objects.filter(pk=1).update(seq=keep.seq, hash=keep.hash)
    # Without the exported checkpoint the shorter chain is self-consistent ...
    assert verify_audit()[0] == 0
    # ... with it, the cut is found, and the first missing event named.
    status, out = verify_audit("--checkpoints", str(tmp_path / "checkpoints.jsonl"))
    assert status == 1
    assert out.startswith(f"BROKEN at #{keep.seq + 1}:"), out
    assert f"#{checkpoint.seq}" in out
    # The checkpoints kept in the database catch it too: the periodic task records none.
    assert audit_checkpoint_record() is None


def test_a_rewritten_and_rehashed_chain_is_detected_against_an_exported_checkpoint(chain, tmp_path):
    audit_checkpoint_record()
    export_checkpoints(tmp_path / "checkpoints.jsonl")
    # The attacker changes an event and recomputes every hash after it, and the head.
    victim = chain[10]
    with past_append_only():
        previous = chain[9].hash
        for event in AuditEvent.objects.filter(seq__gte=victim.seq).order_by("seq"):
            if event.pk == victim.pk:
                event.actor_name = "nobody"
            event.prev_hash = previous
            event.hash = event_hash(
                **{f: getattr(event, f) for f in FIELDS if f != "hash"},
            )
            AuditEvent.objects.filter(pk=event.pk).update(
                actor_name=event.actor_name, prev_hash=event.prev_hash, hash=event.hash
            )
            previous = event.hash
    ChainHead.objects.filter(pk=1).update(hash=previous)
    assert verify_audit()[0] == 0
    status, out = verify_audit("--checkpoints", str(tmp_path / "checkpoints.jsonl"))
    assert status == 1
    assert out.startswith(f"BROKEN at #{chain[-1].seq}: it differs from an exported checkpoint")


def test_verify_audit_refuses_an_unreadable_checkpoints_file(chain, tmp_path):
    from django.core.management.base import CommandError

    (tmp_path / "bad.jsonl").write_text('{"seq": 1}\n')
    with pytest.raises(CommandError, match="--checkpoints"):
        verify_audit("--checkpoints", str(tmp_path / "bad.jsonl"))
    with pytest.raises(CommandError, match="--checkpoints"):
        verify_audit("--checkpoints", str(tmp_path / "missing.jsonl"))


# --- appends under concurrency ---------------------------------------------------------------


@pytest.mark.parametrize("commit_between", ["before the head is read", "after the head is read"])
def test_an_event_committed_while_the_chain_is_verified_is_no_break(
    chain, monkeypatch, commit_between
):
    """A writer that commits between the verification's reads of the events and of the head
    must not make a good chain look broken (nor let a broken one pass)."""
    real = ChainHead.objects

    class Head:
        def filter(self, **kwargs):
            class Query:
                def first(self_):
                    if commit_between == "before the head is read":
                        with transaction.atomic():
                            audit_record(actor=None, action="test.concurrent")
                        return real.filter(**kwargs).first()
                    head = real.filter(**kwargs).first()
                    with transaction.atomic():
                        audit_record(actor=None, action="test.concurrent")
                    return head

            return Query()

    class PatchedHead:
        objects = Head()

    monkeypatch.setattr(verification, "ChainHead", PatchedHead)
    report = verify_chain()
    assert report.ok, report
    monkeypatch.setattr(verification, "ChainHead", ChainHead)
    assert verify_chain().ok


@with_postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_never_fork_the_chain(cardroom, dealer, make_player):
    threads, appends = 8, 15
    barrier = threading.Barrier(threads + 1)
    errors: list[BaseException] = []
    reports = []
    done = threading.Event()

    def write(number: int) -> None:
        try:
            barrier.wait()
            for i in range(appends):
                if i % 2:
                    make_player(f"T{number}-{i}")
                else:
                    with transaction.atomic():
                        audit_record(actor=None, action="test.concurrent", payload={"n": i})
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
    seqs = list(AuditEvent.objects.order_by("seq").values_list("seq", flat=True))
    assert len(seqs) == before + threads * appends
    assert seqs == list(range(1, len(seqs) + 1))
    assert AuditEvent.objects.values("prev_hash").distinct().count() == len(seqs)
    report = verify_chain()
    assert report.ok and report.head_seq == len(seqs)
    assert reports and all(r.ok for r in reports), [r for r in reports if not r.ok][:3]
