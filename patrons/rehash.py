"""Re-key the ID lookup hashes: after ID_LOOKUP_KEY changes, every stored ``id_hash`` (players'
identities and exclusion entries) is recomputed from the decrypted number, so that exclusions
keep matching on the ID. One transaction: every row or none."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from .keys import id_hash, normal_id
from .models import Exclusion, PlayerIdentity


@dataclass(frozen=True)
class Rehashed:
    identities: int  # rows whose hash changed
    exclusions: int


@transaction.atomic
def id_hashes_rekey() -> Rehashed:
    """Recompute each stored ID hash with the lookup key in force; count the rows changed."""
    changed = {"identities": 0, "exclusions": 0}
    for name, rows in (
        ("identities", PlayerIdentity.objects.select_for_update().order_by("pk")),
        ("exclusions", Exclusion.objects.select_for_update().exclude(id_hash="").order_by("pk")),
    ):
        for row in rows.iterator():
            number = normal_id(row.id_number)
            fresh = id_hash(row.id_type, row.id_issuer, number) if number else ""
            if fresh != row.id_hash:
                row.id_hash = fresh
                row.save(update_fields=["id_hash"])
                changed[name] += 1
    return Rehashed(**changed)
