"""``manage.py rehash_ids``: after ID_LOOKUP_KEY changes, recompute every stored ID hash."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from patrons.rehash import id_hashes_rekey


class Command(BaseCommand):
    help = "Recompute the ID lookup hashes of identities and exclusions with ID_LOOKUP_KEY."

    def handle(self, *args: Any, **options: Any) -> None:
        done = id_hashes_rekey()
        self.stdout.write(
            f"Re-keyed {done.identities} identities and {done.exclusions} exclusion entries."
        )
