"""The checkpoint sink when writing to it fails: a line is written whole or not at all; a
partial line that cannot be cut back is reported, kept, and the next line starts after it; an
unwritable sink is an alarm (``/health/deps/``, ``audit.alarms``) and ``verify_audit`` fails
with the events really at risk — those after the last checkpoint on the sink — while
checkpoints go on in the database and the next written line clears the alarm.

Short writes and failures mid-line are made by ``os.write`` taking fewer bytes; a read-only
sink is a read-only tmpfs; a full disk is a tmpfs of two pages (PostgreSQL run; root mounts
them and unmounts them after)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings

from audit import alarms, signing
from audit.models import AuditEvent, Checkpoint, SinkWrite
from audit.services import checkpoint_record

from .support import verify_audit

pytestmark = pytest.mark.django_db

REAL_WRITE = os.write


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n") if path.exists() else []


def writes_at_most(size: int, then_fail_after: int | None = None):
    """An ``os.write`` that takes at most ``size`` bytes a call and, after ``then_fail_after``
    bytes in all, refuses with a full disk."""
    taken = 0

    def write(descriptor: int, data) -> int:
        nonlocal taken
        if then_fail_after is not None and taken >= then_fail_after:
            raise OSError(errno.ENOSPC, "No space left on device")
        room = size if then_fail_after is None else min(size, then_fail_after - taken)
        written = REAL_WRITE(descriptor, bytes(data[:room]))
        taken += written
        return written

    return write


def test_a_short_write_goes_on_until_the_line_is_whole(
    events, checkpoint, checkpoint_sink, monkeypatch
):
    monkeypatch.setattr(signing.os, "write", writes_at_most(100))
    taken = checkpoint()
    [line] = [json.loads(text) for text in checkpoint_sink.read_text().splitlines()]
    assert line == checkpoint_record(taken)
    assert SinkWrite.objects.get().written
    assert alarms.sink_alarm() is None


def test_a_line_cut_short_by_a_full_disk_is_cut_back_and_raises_the_alarm_until_one_is_written(
    events, checkpoint, checkpoint_sink, monkeypatch, client, make_player, clock
):
    first = checkpoint()
    whole = checkpoint_sink.read_bytes()
    for _ in range(2):
        make_player()
    monkeypatch.setattr(signing.os, "write", writes_at_most(4096, then_fail_after=150))
    second = checkpoint()

    assert second is not None and Checkpoint.objects.count() == 2  # the database goes on
    assert checkpoint_sink.read_bytes() == whole  # the 150 bytes were cut back
    alarm = alarms.sink_alarm()
    assert alarm is not None and alarm.checkpoints == 1
    assert "No space left on device" in alarm.error
    deps = client.get("/health/deps/")
    assert deps.status_code == 503 and deps.json()["checkpoint_sink"] == "error"
    clock.advance(minutes=1)  # past the moment a line is on its way
    status, out = verify_audit()
    assert status == 1, out
    since = first.verified_at.isoformat()
    assert f"At risk: 2 events after the last signed checkpoint ({since})" in out, out
    assert "Sink problem: the checkpoint sink lacks 1 checkpoint(s)" in out, out

    monkeypatch.setattr(signing.os, "write", REAL_WRITE)  # room again
    third = checkpoint()
    assert [json.loads(line) for line in checkpoint_sink.read_text().splitlines()] == [
        checkpoint_record(first),
        checkpoint_record(third),
    ]
    assert alarms.sink_alarm() is None
    assert client.get("/health/deps/").json()["checkpoint_sink"] == "ok"
    status, out = verify_audit()
    assert status == 0 and "At risk: 0 events" in out, out


def test_a_partial_line_that_cannot_be_cut_is_kept_reported_and_never_stops_a_checkpoint(
    events, checkpoint, checkpoint_sink, monkeypatch, clock
):
    first = checkpoint()
    monkeypatch.setattr(signing.os, "write", writes_at_most(4096, then_fail_after=150))
    monkeypatch.setattr(signing.os, "ftruncate", _refused)  # a write-once volume
    checkpoint()
    torn = lines_of(checkpoint_sink)[-1]
    assert len(torn) == 150 and torn.startswith(b'{"database":')  # the keys sorted

    clock.advance(minutes=1)
    status, out = verify_audit()
    assert status == 1, out  # the sink is not being written
    assert "line 2 of the checkpoint sink is a partial checkpoint (150 bytes" in out, out

    monkeypatch.setattr(signing.os, "write", REAL_WRITE)
    third = checkpoint()
    assert third is not None
    lines = lines_of(checkpoint_sink)
    assert lines[1] == torn  # kept for the auditors, never edited
    assert json.loads(lines[0]) == checkpoint_record(first)
    assert json.loads(lines[2]) == checkpoint_record(third)  # on a line of its own
    status, out = verify_audit()
    assert status == 0, out
    assert "line 2 of the checkpoint sink is a partial checkpoint" in out, out


def _refused(*args):
    raise OSError(errno.EPERM, "Operation not permitted")


# --- a sink on a file system of its own -----------------------------------------------------

CAN_MOUNT = os.geteuid() == 0 and os.path.exists("/proc/filesystems")


@contextmanager
def tmpfs(where: Path, *, size: str, read_only: bool = False) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` for the block, unmounted after whatever
    happens."""
    where.mkdir()
    options = f"size={size},mode=0700" + (",ro" if read_only else "")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)
        if os.path.ismount(where):
            subprocess.run(["umount", "-l", str(where)], check=False)
        where.rmdir()


@pytest.mark.skipif(not CAN_MOUNT, reason="mounting a tmpfs needs root")
def test_a_read_only_sink_from_the_start_is_an_alarm_and_every_event_is_at_risk(
    events, checkpoint, tmp_path, client, clock
):
    with (
        tmpfs(tmp_path / "ro", size="64k", read_only=True) as volume,
        override_settings(AUDIT_CHECKPOINT_SINK=str(volume / "checkpoints.jsonl")),
    ):
        assert checkpoint() is not None
        failed = SinkWrite.objects.get()
        assert not failed.written and "Read-only file system" in failed.error
        assert client.get("/health/deps/").json()["checkpoint_sink"] == "error"
        clock.advance(minutes=1)
        status, out = verify_audit()
    assert status == 1, out
    assert f"At risk: {len(events)} events after the last signed checkpoint (the start" in out


@pytest.mark.skipif(not CAN_MOUNT, reason="mounting a tmpfs needs root")
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL run's")
def test_a_full_disk_cuts_the_line_back_and_the_sink_takes_the_next_once_there_is_room(
    events, checkpoint, tmp_path, make_player, clock
):
    """Two pages: the sink fills one while a filler holds the other, until a line no longer
    fits; the filler removed, the next line is written and the alarm clears."""
    with tmpfs(tmp_path / "small", size="8k") as volume:
        sink = volume / "checkpoints.jsonl"
        filler = volume / "filler"
        filler.write_bytes(b"\0" * 4096)
        with override_settings(AUDIT_CHECKPOINT_SINK=str(sink)):
            written = []
            for _ in range(10):
                make_player()
                taken = checkpoint()
                if not SinkWrite.objects.filter(checkpoint=taken, written=True).exists():
                    break
                written.append(taken)
            else:
                pytest.fail("the small volume never filled")
            assert written, "not even one checkpoint fitted"
            assert sink.read_bytes().endswith(b"\n")
            assert [json.loads(line) for line in sink.read_text().splitlines()] == [
                checkpoint_record(c) for c in written
            ]
            assert "No space left on device" in SinkWrite.objects.latest("id").error
            at_risk = AuditEvent.objects.filter(seq__gt=written[-1].seq).count()
            clock.advance(minutes=1)
            status, out = verify_audit()
            assert status == 1, out
            assert f"At risk: {at_risk} events after the last signed checkpoint" in out, out

            filler.unlink()
            make_player()
            last = checkpoint()
            assert json.loads(sink.read_text().splitlines()[-1]) == checkpoint_record(last)
            assert alarms.sink_alarm() is None
            status, out = verify_audit()
            assert status == 0 and "At risk: 0 events" in out, out
