"""The signature chain of a fill or credit slip (Nevada MICS, table games: fills and credits;
25 CFR 543.18; N.J.A.C. 13:69D-1.21): each step is a row, signed by the person who did it, who
authenticated at that moment; and the original, found in the table's drop box by the count."""

from __future__ import annotations

from django.conf import settings
from django.db import models

_USER = settings.AUTH_USER_MODEL


class SlipStep(models.Model):
    """One signed step of a slip's chain, in order. A fill: prepared at the cage by the
    cashier, carried by a runner (where the cardroom sets one), counted by the dealer at the
    table, signed by a floor supervisor — then the rack moves up. A credit: counted by the
    dealer, signed by a floor supervisor, carried, received at the cage by the cashier — then
    the rack moves down. One person signs one step of a slip at most."""

    class Name(models.TextChoices):
        PREPARED = "prepared", "prepared by the cashier"
        CARRIED = "carried", "carried by the runner"
        DEALER = "dealer", "counted and signed by the dealer"
        SUPERVISOR = "supervisor", "signed by the floor supervisor"
        CAGE_RECEIVED = "cage_received", "received at the cage by the cashier"

    slip = models.ForeignKey("cage.Slip", on_delete=models.PROTECT, related_name="steps")
    step = models.CharField(max_length=20, choices=Name.choices)
    person = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    signature = models.OneToOneField("tables.Signature", on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["slip", "id"]
        constraints = [
            models.UniqueConstraint(fields=["slip", "step"], name="slip_step_once"),
            # One person, one step: the database keeps it too, whatever calls it.
            models.UniqueConstraint(fields=["slip", "person"], name="slip_step_one_person"),
        ]

    def __str__(self) -> str:
        return f"{self.slip} {self.step}"

    @classmethod
    def chain(cls, kind: str, *, runner: bool) -> tuple[str, ...]:
        """The steps of a fill or a credit, in order; the runner's only where one carries."""
        steps = (
            (cls.Name.PREPARED, cls.Name.CARRIED, cls.Name.DEALER, cls.Name.SUPERVISOR)
            if kind == "fill"
            else (cls.Name.DEALER, cls.Name.SUPERVISOR, cls.Name.CARRIED, cls.Name.CAGE_RECEIVED)
        )
        return tuple(str(s) for s in steps if runner or s != cls.Name.CARRIED)


class SlipOriginal(models.Model):
    """A slip's original, found by the count in its table's drop box (4 CCR §12385; Nevada
    MICS): matched against the duplicate kept at the cage. A completed slip without one is
    unmatched."""

    slip = models.OneToOneField("cage.Slip", on_delete=models.PROTECT, related_name="original")
    drop_count = models.ForeignKey(
        "cage.DropCount", on_delete=models.PROTECT, related_name="slips_matched"
    )
    found_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.slip} original found"
