"""A house-banked table's rack by the books: one running balance per table."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from .tables import Table


class Rack(models.Model):
    """What a house-banked table's rack holds by the books, kept in the same transaction as
    every move of it (Nevada MICS table games; N.J.A.C. 13:69D-1.21): a count sets it, a fill
    raises it, a credit, a chip sale or the house's payouts lower it, and nothing lowers it
    below zero (a database constraint, and a refusal before it).

    ``cents`` is the value, an integer so that the database's own sum and comparison are exact
    on SQLite too; it moves with a guarded ``UPDATE … WHERE cents >= n``, which PostgreSQL
    re-checks after any concurrent writer commits. ``pieces`` counts chips by denomination
    where the books know them: a count, a fill, a credit (a sale or a payout is a value, the
    dealer's choice of chips); a credit never takes more pieces of one than it holds.

    The one row of a table that changes: the moves themselves are the append-only house bank
    entries, the slips and the counts."""

    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="rack")
    cents = models.BigIntegerField(default=0)
    pieces = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(cents__gte=0), name="rack_never_negative")
        ]

    def __str__(self) -> str:
        return f"{self.table} rack: {self.cents / 100:.2f}"
