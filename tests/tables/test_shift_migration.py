"""The migration to versioned shifts carries each cardroom's shifts over as one definition in
force from the earliest day, on a database of its own."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_shifts_in_place_become_a_definition_from_the_earliest_day(tmp_path):
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'migrated.sqlite3'}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    run = subprocess.run(
        [sys.executable, "-m", "tests.tables.shift_migration_check"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "carried over and checked" in run.stdout
