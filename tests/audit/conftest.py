"""Fixtures for the audit tests: the shared world of tests/conftest.py (tables opened with the
dealer on duty, players seated with chips), its cardroom made on the test's clock, a few
events, and a checkpoint taken as beat takes it."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from audit.services import audit_checkpoint_record


@pytest.fixture
def cardroom(supervisor, clock, cardroom):
    """tests/conftest.py's cardroom in New York (gaming day from 06:00), made once the clock is
    the test's (it starts at T0)."""
    return cardroom


@pytest.fixture
def events(make_player, clock):
    """A few events: six players registered by the dealer, a minute apart."""
    for _ in range(6):
        clock.advance(minutes=1)
        make_player()
    return list(AuditEvent.objects.order_by("seq"))


@pytest.fixture
def checkpoint(django_capture_on_commit_callbacks, clock):
    """Take a checkpoint as beat's task does: a minute on, its sink line written once it
    commits."""

    def take():
        clock.advance(minutes=1)
        with django_capture_on_commit_callbacks(execute=True):
            return audit_checkpoint_record()

    return take
