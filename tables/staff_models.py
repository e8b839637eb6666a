"""Staff accounts beyond Django's user, signatures and two-person changes (design.md 7, 8).

An account that approves or signs is made, or given its role, only by an administrator or
through a two-person change; ``StaffLineage`` keeps who made or promoted each account, the line
no approval may cross. A ``Signature`` is a person authenticating at the moment of signing,
never a name picked from a list. Lineage, signatures and decisions are append-only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

_USER = settings.AUTH_USER_MODEL


class StaffProfile(models.Model):
    """What the cardroom keeps of an account besides Django's user. An account without one was
    made outside the services (``createsuperuser``, a fixture): set up by its own person."""

    user = models.OneToOneField(_USER, on_delete=models.CASCADE, related_name="staff_profile")
    # When the account's own person chose its password (through the one-time link); None: not
    # yet, and until then the account can neither sign in, approve nor sign.
    set_up_at = models.DateTimeField(null=True, blank=True)
    # Its password was chosen by someone else: it is changed at the next sign-in.
    password_change_due = models.BooleanField(default=False)
    # The personal signing PIN, hashed with Django's password hashers ("" when none is set).
    pin = models.CharField(max_length=128, blank=True)
    pin_set_at = models.DateTimeField(null=True, blank=True)
    # Failed signatures in a row, and the cool-off they earned (the login's policy).
    signing_failures = models.PositiveIntegerField(default=0)
    signing_locked_until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"


class StaffLineage(models.Model):
    """Who made an account or gave it a role: the proposer and approver of a two-person change,
    or the administrator or floor supervisor who did it alone."""

    class How(models.TextChoices):
        MADE = "made"
        PROMOTED = "promoted"
        APPROVED = "approved"  # approved the change that made or promoted it

    account = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    maker = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    how = models.CharField(max_length=10, choices=How.choices)
    role = models.CharField(max_length=40)
    at = models.DateTimeField()

    class Meta:
        ordering = ["account", "id"]
        indexes = [
            models.Index(fields=["account", "maker"]),
            models.Index(fields=["maker", "account"]),
        ]

    def __str__(self) -> str:
        return f"{self.account} {self.how} by {self.maker}"


class Signature(models.Model):
    """A person's signature on a control's record: who authenticated, how, when and on which
    session or device. One person signs a record once."""

    class Method(models.TextChoices):
        PASSWORD = "password"
        PIN = "pin"

    signer = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    # What the person signed as: "approver", "second_counter", "witness", "dealer", …
    capacity = models.CharField(max_length=30)
    record_type = models.CharField(max_length=60)  # "<app label>.<model>"
    record_id = models.PositiveBigIntegerField()
    method = models.CharField(max_length=10, choices=Method.choices)
    signed_at = models.DateTimeField()
    # A digest of the session or device token the signature came through, and the device.
    session = models.CharField(max_length=64, blank=True)
    device = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["record_type", "record_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["record_type", "record_id", "signer"], name="one_signature_per_person"
            )
        ]

    def __str__(self) -> str:
        return f"{self.record_type} #{self.record_id} signed by {self.signer} ({self.capacity})"


class TwoPersonChange(models.Model):
    """A change one person proposes and a second decides (design.md 7): never edited; its
    decision is a row of its own. ``values`` say what changes, by ``kind``."""

    class Kind(models.TextChoices):
        STAFF_ACCOUNT = "staff_account", "New account in a role that approves or signs"
        STAFF_ROLE = "staff_role", "A role that approves or signs, given to an account"

    kind = models.CharField(max_length=30, choices=Kind.choices)
    # The account a role change is for (None for a new account: it exists once approved).
    subject = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    values = models.JSONField()
    reason = models.TextField()
    proposed_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    proposed_at = models.DateTimeField()

    class Meta:
        ordering = ["-proposed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"


class TwoPersonDecision(models.Model):
    """The one decision on a two-person change: approved by a second person (signed),
    rejected, or withdrawn by its proposer."""

    class Outcome(models.TextChoices):
        APPROVED = "approved"
        REJECTED = "rejected"
        WITHDRAWN = "withdrawn"

    change = models.OneToOneField(
        TwoPersonChange, on_delete=models.PROTECT, related_name="decision"
    )
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    decided_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField()
    reason = models.TextField(blank=True)
    # What the approval made: the account it created or changed.
    result = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.change}: {self.outcome}"
