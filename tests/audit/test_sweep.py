"""Beat's rolling re-hash of the older events (``audit.sweep``): every run of the periodic task
re-hashes a slice of the events behind the last checkpoint, so that each event is checked
again at least daily; an event rewritten behind the last checkpoint stops the next checkpoint
and is reported, until the chain is whole again."""

from __future__ import annotations

import math

import pytest

from audit import sweep
from audit.chain import chain_event_hash
from audit.models import AuditEvent, ChainHead, ChainSweep, Checkpoint
from audit.services import audit_checkpoint_record
from audit.sweep import MAX_SLICE, MIN_SLICE, PASS_RUNS, slice_size, sweep_step
from audit.tasks import verify_chain_task

from .support import past_append_only

pytestmark = pytest.mark.django_db


@pytest.fixture
def events_in_chains(dp_table, house_table, make_player, clock):
    """Events in several chains: the cardroom's (players), and each table's."""
    for _ in range(4):
        clock.advance(minutes=1)
        make_player()
    return list(AuditEvent.objects.order_by("seq"))


@pytest.fixture
def small_slices(monkeypatch):
    """Slices of three events, so that a handful of events takes several runs."""
    monkeypatch.setattr(sweep, "MIN_SLICE", 3)


def places() -> set[tuple[str, int]]:
    return set(AuditEvent.objects.values_list("chain", "chain_seq"))


# --- the arithmetic ----------------------------------------------------------------------------


def test_a_run_rehashes_a_six_hundredth_of_the_log_within_its_bounds():
    assert slice_size(0) == MIN_SLICE
    assert slice_size(PASS_RUNS * MIN_SLICE + 1) == MIN_SLICE + 1
    assert slice_size(180_000_000) == 300_000  # a year of a 50-table room
    assert slice_size(10**10) == MAX_SLICE  # a minute's work stays bounded
    # One run a minute: a pass within 10 hours, so two re-hashes of an event (at most two
    # passes apart) within 20 hours, up to PASS_RUNS × MAX_SLICE events.
    assert 2 * PASS_RUNS <= 20 * 60
    for total in (1, 999, 5_000_000, 100_000_000, PASS_RUNS * MAX_SLICE):
        assert math.ceil(total / slice_size(total)) <= PASS_RUNS


# --- the walk --------------------------------------------------------------------------------


def test_runs_walk_every_chain_slice_by_slice_and_start_again(
    events_in_chains, small_slices, clock
):
    covered: list[tuple[str, int]] = []
    runs = 0
    while True:
        report = sweep_step(now=clock.advance(minutes=1))
        runs += 1
        assert report.ok, report.problem
        assert report.events == sum(last - first + 1 for _, first, last in report.slices) <= 3
        covered += [
            (chain, n) for chain, first, last in report.slices for n in range(first, last + 1)
        ]
        if report.passed:
            break
        assert runs < 50
    assert sorted(covered) == sorted(places())  # every event once in the pass
    assert runs == math.ceil(len(covered) / 3)
    state = ChainSweep.objects.get()
    assert state.passed_at == clock.now and (state.chain, state.place) == ("", 0)
    # The next run starts the next pass from the first chain's first event.
    report = sweep_step(now=clock.advance(minutes=1))
    assert report.slices[0] == (min(c for c, _ in places()), 1, 3)


def test_events_added_during_a_pass_are_swept_when_their_chain_comes_round(
    events_in_chains, small_slices, make_player, clock
):
    sweep_step(now=clock.advance(minutes=1))
    make_player()  # the cardroom's chain grows behind or ahead of the cursor
    covered: set[tuple[str, int]] = set()
    for _ in range(2):  # this pass and the next
        while not (report := sweep_step(now=clock.advance(minutes=1))).passed:
            covered |= {(c, n) for c, f, last in report.slices for n in range(f, last + 1)}
        covered |= {(c, n) for c, f, last in report.slices for n in range(f, last + 1)}
    assert covered == places()


# --- what beat does with what the sweep finds ----------------------------------------------------


def test_an_old_event_rewritten_behind_the_last_checkpoint_stops_the_next_checkpoint(
    events_in_chains, make_player, clock, caplog
):
    first = verify_chain_task.delay().get(timeout=10)
    assert first["ok"] is True and Checkpoint.objects.count() == 1
    make_player()
    old = events_in_chains[1]
    with past_append_only():
        AuditEvent.objects.filter(pk=old.pk).update(actor_name="someone")

    answer = verify_chain_task.delay().get(timeout=10)

    assert answer["ok"] is False
    assert answer["swept"]["chain"] == old.chain
    assert answer["swept"]["broken_place"] == old.chain_seq
    assert "its content does not match its hash" in answer["swept"]["problem"]
    assert Checkpoint.objects.count() == 1  # nothing signed over it
    assert f"broken behind the last checkpoint: chain {old.chain}" in caplog.text
    # Every later run finds it again, and a checkpoint asked for elsewhere (a day close) is
    # refused too, until the chain is whole.
    assert verify_chain_task.delay().get(timeout=10)["ok"] is False
    assert audit_checkpoint_record() is None
    assert Checkpoint.objects.count() == 1
    with past_append_only():
        AuditEvent.objects.filter(pk=old.pk).update(actor_name=old.actor_name)
    assert verify_chain_task.delay().get(timeout=10)["ok"] is True
    assert Checkpoint.objects.count() == 2 and not sweep.sweep_found_broken()


def test_a_rewritten_event_with_its_hash_recomputed_breaks_the_link_from_the_next(events_in_chains):
    assert audit_checkpoint_record() is not None
    chain = events_in_chains[-1].chain
    ours = list(AuditEvent.objects.filter(chain=chain).order_by("chain_seq"))
    target = ours[-2]  # behind the checkpoint, with one event after it
    payload = target.payload.replace("}", ',"x":"1"}', 1)
    fields = {
        name: getattr(target, name)
        for name in ("chain", "chain_seq", "seq", "occurred_at", "actor_id", "actor_name")
    } | {"action": target.action, "object_type": target.object_type}
    digest = chain_event_hash(
        **fields, object_id=target.object_id, payload=payload, prev_hash=target.prev_hash
    )
    with past_append_only():
        AuditEvent.objects.filter(pk=target.pk).update(payload=payload, hash=digest)

    report = sweep_step()

    assert not report.ok
    assert (report.chain, report.broken_place) == (chain, target.chain_seq + 1)
    assert "it does not follow the event before" in report.problem


def test_an_old_event_deleted_is_found_missing(events_in_chains):
    assert audit_checkpoint_record() is not None
    middle = AuditEvent.objects.filter(chain=events_in_chains[-1].chain).order_by("chain_seq")[1]
    with past_append_only():
        AuditEvent.objects.filter(pk=middle.pk).delete()
    report = sweep_step()
    assert not report.ok
    assert (report.chain, report.broken_place) == (middle.chain, middle.chain_seq)
    assert f"event {middle.chain_seq} is missing" in report.problem


def test_a_head_row_moved_off_its_last_event_is_found(events_in_chains):
    head = ChainHead.objects.get(chain=events_in_chains[-1].chain)
    ChainHead.objects.filter(pk=head.pk).update(hash="0" * 64)
    report = sweep_step()
    assert not report.ok and "it differs from the chain head" in report.problem
