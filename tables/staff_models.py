"""Staff accounts beyond Django's user, signatures and two-person changes (design.md 7, 8).

An account that approves or signs is made, or given its role, only by an administrator or
through a two-person change; ``StaffLineage`` keeps who made or promoted each account, the line
no approval may cross. A ``Signature`` is a person authenticating at the moment of signing,
never a name picked from a list. Lineage, signatures and decisions are append-only.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.db import models

from core.scoping import CardroomScoped

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


class _ChangesOfTheRequestsCardrooms(CardroomScoped["TwoPersonChange"]):
    """A cardroom's changes are its own; a staff change (no cardroom) is the cardrooms' of the
    person who proposed it (everyone's while that person works in none yet, as their account
    is: ``staff_selectors.in_the_requests_cardrooms``)."""

    cardroom_path = "cardroom"

    def condition(self, ids: frozenset[int]) -> models.Q:
        memberships = self.model._meta.apps.get_model("tables", "CardroomMembership")
        members = memberships._base_manager.filter(cardroom_id__in=ids).values("user_id")
        placed = memberships._base_manager.values("user_id")
        return models.Q(cardroom_id__in=ids) | (
            models.Q(cardroom_id__isnull=True)
            & (
                models.Q(proposed_by_id__in=models.Subquery(members))
                | ~models.Q(proposed_by_id__in=models.Subquery(placed))
            )
        )


class TwoPersonChange(models.Model):
    """A change one person proposes and a second decides (design.md 7): never edited; its
    decision is a row of its own. ``values`` say what changes, by ``kind``; ``cardroom`` and
    ``table`` what it is a change of (and which audit chain its events go on)."""

    class Kind(models.TextChoices):
        STAFF_ACCOUNT = "staff_account", "New account in a role that approves or signs"
        STAFF_ROLE = "staff_role", "A role that approves or signs, given to an account"
        TABLE_SETTINGS = "table_settings", "A change to a table's settings"
        PAYTABLE = "paytable", "A change to a cardroom's catalogue of approved paytables"
        SELF_APPROVAL = "self_approval", "A change to a cardroom's self-approval switch"
        EXCLUSION_END = "exclusion_end", "The end of a house bar"

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REJECTED = "rejected"
        WITHDRAWN = "withdrawn"

    kind = models.CharField(max_length=30, choices=Kind.choices)
    # The account a role change is for (None for a new account: it exists once approved).
    subject = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    cardroom = models.ForeignKey(
        "patrons.Cardroom", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    values = models.JSONField()
    reason = models.TextField()
    # None only for a paytable that the catalogue's migration found in use: nobody proposed it.
    proposed_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField()

    objects = _ChangesOfTheRequestsCardrooms()

    class Meta:
        ordering = ["-proposed_at", "-id"]
        indexes = [models.Index(fields=["kind", "cardroom", "table"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"

    # What every kind's change says of its decision (None while it waits for one).

    @property
    def decided(self) -> TwoPersonDecision | None:
        try:
            return self.decision
        except TwoPersonDecision.DoesNotExist:
            return None

    @property
    def status(self) -> str:
        decision = self.decided
        return self.Status.PENDING if decision is None else decision.outcome

    @property
    def decided_by(self) -> Any:
        decision = self.decided
        return None if decision is None else decision.decided_by

    @property
    def decided_by_id(self) -> int | None:
        decision = self.decided
        return None if decision is None else decision.decided_by_id

    @property
    def decided_at(self) -> datetime | None:
        decision = self.decided
        return None if decision is None else decision.decided_at

    @property
    def self_approved(self) -> bool:
        decision = self.decided
        return decision is not None and decision.self_approved


class TwoPersonDecision(models.Model):
    """The one decision on a two-person change: approved by a second person (signed; by its
    proposer only where its kind allows self-approval, and then it says so), rejected, or
    withdrawn by its proposer."""

    class Outcome(models.TextChoices):
        APPROVED = "approved"
        REJECTED = "rejected"
        WITHDRAWN = "withdrawn"

    change = models.OneToOneField(
        TwoPersonChange, on_delete=models.PROTECT, related_name="decision"
    )
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    # None for a catalogue entry approved with its cardroom or by a migration, not by a person.
    decided_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField()
    reason = models.TextField(blank=True)
    self_approved = models.BooleanField(default=False)
    # What the approval made: the account it created or changed.
    result = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # What else the approval made or found, by kind (a settings change: the version it made).
    values = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"{self.change}: {self.outcome}"

    @property
    def approved(self) -> bool:
        return self.outcome == self.Outcome.APPROVED


# --- the kinds of two-person change that read their own ``values`` ---------------------------
# Proxies of the one model, with no table of their own, each listing only its kind. A kind's
# payload is what its proposal says; what its approval made is in the decision's ``values``.


_Kind = TypeVar("_Kind", bound=TwoPersonChange)


def _table_settings() -> Any:
    # The settings versions are in the app's models module, which imports this one.
    return TwoPersonChange._meta.apps.get_model("tables", "TableSettings")


class KindManager(CardroomScoped[_Kind]):
    """The changes of one kind (each a cardroom's: a request sees its cardrooms' only)."""

    cardroom_path = "cardroom"

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def get_queryset(self) -> models.QuerySet[_Kind]:
        return super().get_queryset().filter(kind=self.kind)


class SettingChange(TwoPersonChange):
    """R17: new values for some of a table's settings. ``values``: ``based_on`` (the settings
    version it was proposed on, its ``based_on_version`` and the figure settings of it,
    ``base``), ``new`` and ``old`` (only the settings that change; money as strings). Its
    approval's ``values``: the ``version`` it made (``settings``: its id), ``made`` (the figure
    settings of that version) and ``old`` as they were when it was approved."""

    # The stubs see a proxy\'s manager as the base\'s class variable redeclared.
    objects = KindManager["SettingChange"](TwoPersonChange.Kind.TABLE_SETTINGS)  # type: ignore[misc,assignment]

    class Meta:
        proxy = True

    @property
    def new_values(self) -> dict[str, Any]:
        return dict(self.values["new"])

    @property
    def old_values(self) -> dict[str, Any]:
        decision = self.decided
        if decision is not None and decision.approved:
            return dict(decision.values["old"])
        return dict(self.values["old"])

    @property
    def based_on_version(self) -> int:
        return int(self.values["based_on_version"])

    @property
    def based_on(self) -> Any:
        return _table_settings().objects.get(pk=self.values["based_on"])

    @property
    def version(self) -> int | None:
        decision = self.decided
        return decision.values.get("version") if decision is not None else None

    @property
    def result(self) -> Any:
        """The settings version the approval made (None: not approved)."""
        decision = self.decided
        if decision is None or "settings" not in decision.values:
            return None
        return _table_settings().objects.get(pk=decision.values["settings"])


class PaytableChange(TwoPersonChange):
    """R17: a paytable added to a cardroom's catalogue of approved paytables, or retired from
    it. ``values``: ``paytable`` (the setting that posts it: ``flush_paytable`` or
    ``straight_flush_paytable``), ``lines``, ``action`` and ``origin``. The catalogue is what
    the approved changes add up to, oldest decision first."""

    class Action(models.TextChoices):
        ADD = "add"
        RETIRE = "retire"

    class Origin(models.TextChoices):
        PROPOSED = "proposed"  # by a floor supervisor, decided by another (dual control)
        DEFAULT = "default"  # a new table's default (tables.rules), seeded with the cardroom
        IN_USE = "in_use"  # in use at a table when the catalogue began (migration 0005)

    # The stubs see a proxy\'s manager as the base\'s class variable redeclared.
    objects = KindManager["PaytableChange"](TwoPersonChange.Kind.PAYTABLE)  # type: ignore[misc,assignment]

    class Meta:
        proxy = True

    @property
    def paytable(self) -> str:
        return str(self.values["paytable"])

    @property
    def lines(self) -> dict[str, int]:
        return dict(self.values["lines"])

    @property
    def action(self) -> str:
        return str(self.values["action"])

    @property
    def origin(self) -> str:
        return str(self.values.get("origin", self.Origin.PROPOSED))

    @property
    def paytable_label(self) -> str:
        # The app's models module holds the kinds (it imports this one, so no import here).
        kinds = self._meta.app_config.models_module.PaytableKind  # type: ignore[union-attr]
        return str(kinds(self.paytable).label)

    @property
    def origin_label(self) -> str:
        return str(self.Origin(self.origin).label)


class SelfApprovalChange(TwoPersonChange):
    """R17's self-approval switch of a cardroom, on or off (``values``: ``allowed``), proposed
    by one administrator and decided by another."""

    # The stubs see a proxy\'s manager as the base\'s class variable redeclared.
    objects = KindManager["SelfApprovalChange"](TwoPersonChange.Kind.SELF_APPROVAL)  # type: ignore[misc,assignment]

    class Meta:
        proxy = True

    @property
    def allowed(self) -> bool:
        return bool(self.values["allowed"])


class ExclusionEndChange(TwoPersonChange):
    """A house bar (``patrons.Exclusion``) ended: ``values`` name the ``exclusion`` and the day
    it ``ends_on``; proposed by one floor supervisor and approved by another."""

    # The stubs see a proxy\'s manager as the base\'s class variable redeclared.
    objects = KindManager["ExclusionEndChange"](TwoPersonChange.Kind.EXCLUSION_END)  # type: ignore[misc,assignment]

    class Meta:
        proxy = True

    @property
    def exclusion_id(self) -> int:
        return int(self.values["exclusion"])

    @property
    def ends_on(self) -> str:
        return str(self.values["ends_on"])
