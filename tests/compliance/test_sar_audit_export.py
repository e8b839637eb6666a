"""The audit log export keeps suspicious activity cases' events (``sar.*``) for compliance:
a floor supervisor's export leaves them out, compliance's holds them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from compliance.exports import AUDIT_COLUMNS
from patrons import sar_cases
from tables.services.seating import player_create

from .test_exports import read, requested

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media")]


def test_only_compliances_audit_export_holds_the_sar_events(
    cardroom, dealer, auditor, supervisor, django_capture_on_commit_callbacks
):
    player = player_create(cardroom=cardroom, name="Robin Vale", by=dealer)
    opening = sar_cases.SarOpening(summary="Asked how to avoid a CTR", player=player)
    sar_cases.sar_case_open(cardroom=cardroom, opening=opening, by=auditor)
    now = timezone.now()
    span = (now - timedelta(hours=1), now + timedelta(hours=1))
    action = AUDIT_COLUMNS.index("action")

    def actions(by) -> list[str]:
        export = requested("audit_log", *span, by, django_capture_on_commit_callbacks)
        return [row[action] for row in read(export)[1:]]

    assert "player.created" in actions(supervisor)
    assert not [a for a in actions(supervisor) if a.startswith("sar.")]
    assert "sar.opened" in actions(auditor)
