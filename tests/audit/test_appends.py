"""An event appended at its chain's head: on PostgreSQL hashed by the database in the same
statement that locks the head and moves it (``audit.appends``), over the same text Python
hashes, whatever the names and payload hold; a chain's first event goes the longer way."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.actions import AuditAction
from audit.chain import chain_event_hash
from audit.models import AuditEvent, ChainHead
from audit.services import audit_record
from audit.verification import verify_chains

pytestmark = pytest.mark.django_db

AWKWARD = {
    "name": 'Zoë "the \\ dealer" 王',
    "line": "a\u2028b\nc\td",
    "emoji": "\U0001f0a1",
    "money": "1.50",
}


def rehashed(event: AuditEvent) -> str:
    return chain_event_hash(
        chain=event.chain,
        chain_seq=event.chain_seq,
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


def test_awkward_names_and_payloads_hash_as_python_hashes_them_and_the_chain_verifies():
    actor = User.objects.create_user(username="zoë.王", password="x" * 12)
    chain = "cardroom:987001"
    events = [
        audit_record(
            actor=actor, action=AuditAction.CARDROOM_SHIFTS_SET, payload=AWKWARD, chain=chain
        )
        for _ in range(3)
    ]

    stored = list(AuditEvent.objects.filter(chain=chain).order_by("chain_seq"))
    assert [e.pk for e in stored] == [e.pk for e in events]
    assert [e.chain_seq for e in stored] == [1, 2, 3]
    assert [e.hash for e in stored] == [rehashed(e) for e in stored]
    assert [e.prev_hash for e in stored[1:]] == [e.hash for e in stored[:-1]]
    head = ChainHead.objects.get(chain=chain)
    assert (head.seq, head.hash) == (3, stored[-1].hash)
    assert verify_chains(full=True, workers=1).chains_ok


@pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement on PostgreSQL")
def test_an_event_on_a_chain_with_a_head_is_one_statement():
    chain = "cardroom:987002"
    audit_record(actor=None, action=AuditAction.CARDROOM_SHIFTS_SET, chain=chain)  # the head

    with CaptureQueriesContext(connection) as captured:
        event = audit_record(actor=None, action=AuditAction.CARDROOM_SHIFTS_SET, chain=chain)

    assert len(captured.captured_queries) == 1
    assert event.chain_seq == 2 and event.hash == rehashed(event)
    assert AuditEvent.objects.get(pk=event.pk).hash == event.hash
