"""A change's transaction takes a savepoint only where a caller could roll back to it: the
outermost change inside a caller's transaction; none for a change inside another."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from core.transactions import change_atomic, change_failed

pytestmark = pytest.mark.django_db


def savepoints(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SAVEPOINT")]


def test_a_change_inside_another_takes_no_savepoint():
    # The outermost inside the test's transaction: a savepoint of its own; the others none.
    with CaptureQueriesContext(connection) as captured, change_atomic(), change_atomic():
        Group.objects.create(name="inner")

    assert len(savepoints(captured)) == 1
    assert Group.objects.filter(name="inner").exists()


def test_a_failure_inside_an_inner_change_rolls_the_outermost_back_whole():
    with change_atomic():
        Group.objects.create(name="outer")
        with pytest.raises(ValueError), change_atomic():
            Group.objects.create(name="inner")
            raise ValueError("refused")
        assert change_failed()  # no savepoint to go back to: only the whole can roll back

    assert not change_failed()
    assert not Group.objects.filter(name__in=("outer", "inner")).exists()


def test_a_plain_atomic_block_between_still_rolls_back_to_its_own_savepoint():
    with change_atomic():
        Group.objects.create(name="kept")
        with pytest.raises(ValueError), transaction.atomic(), change_atomic():
            Group.objects.create(name="undone")
            raise ValueError("refused")
        assert not change_failed()

    assert list(
        Group.objects.filter(name__in=("kept", "undone")).values_list("name", flat=True)
    ) == ["kept"]
