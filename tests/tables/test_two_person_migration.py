"""Migrations 0014 and 0015 copy every old setting change, paytable change and self-approval
change (and decision) into the one two-person change, on a database of their own."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_old_changes_are_copied_into_the_one_two_person_change(tmp_path):
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'migrated.sqlite3'}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    run = subprocess.run(
        [sys.executable, "-m", "tests.tables.two_person_migration_check"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "copies checked" in run.stdout
