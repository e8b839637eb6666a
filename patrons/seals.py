"""Seals of exclusion entries: what ``verify_state`` checks an exclusion against, so that one
deleted or edited in the database is found (``compliance.state_law``).

An exclusion's audit event cannot carry the person (an excluded person's name stays off the
log), so it carries a seal instead: an HMAC over the entry's fields, keyed with the audit
checkpoints' key (``AUDIT_CHECKPOINT_KEY``, kept outside the database: whoever can rewrite the
database cannot seal an edit). ``exclusion.added`` carries its entry's seal; a state list's
``exclusion.list_imported`` the ids it made (as ranges) and one seal over all of them, in id
order. The seal covers the term as made: ``exclusion.ended`` records the end it sets and the
one it replaced (``was``), so the verification knows both. The ID number is sealed as the
number, not as its lookup hash, which changes whenever ``ID_LOOKUP_KEY`` does; the stored hash
is checked against the number instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import date
from typing import Any

from audit import signing
from audit.chain import canonical_json

from .keys import normal_id
from .models import Exclusion


def sealed_text(row: Exclusion, *, ends_on: date | None) -> str:
    """The fields an entry is sealed over, with the term's end as made (``ends_on``)."""
    return canonical_json(
        [
            row.pk,
            row.cardroom_id,
            row.kind,
            row.source,
            row.reference,
            row.name,
            row.date_of_birth,
            row.id_type,
            row.id_issuer,
            normal_id(row.id_number or ""),
            row.starts_on,
            ends_on,
            row.reason,
            row.player_id,
        ]
    )


def exclusion_seal(row: Exclusion) -> dict[str, str]:
    """For ``exclusion.added``: the new entry's seal."""
    seal, key = signing.sign(sealed_text(row, ends_on=row.ends_on).encode())
    return {"seal": seal, "key_id": key}


def import_digest(texts: Iterable[str]) -> hashlib._Hash:
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode() + b"\n")
    return digest


def import_seal(rows: list[Exclusion]) -> dict[str, Any]:
    """For ``exclusion.list_imported``: the ids made, as ``[first, last]`` ranges, and one seal
    over the entries in id order."""
    rows = sorted(rows, key=lambda row: row.pk)
    ranges: list[list[int]] = []
    for row in rows:
        if ranges and ranges[-1][1] + 1 == row.pk:
            ranges[-1][1] = row.pk
        else:
            ranges.append([row.pk, row.pk])
    digest = import_digest(sealed_text(row, ends_on=row.ends_on) for row in rows)
    seal, key = signing.sign(digest.hexdigest().encode())
    return {"ids": ranges, "seal": seal, "key_id": key}


def seal_ok(text: str | bytes, seal: str, key_id: str) -> bool:
    return signing.signature_ok(text.encode() if isinstance(text, str) else text, seal, key_id)
