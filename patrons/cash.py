"""Cash reporting: every cash transaction of a player on the cash log, per gaming day (the
cardroom's zone and day start), cash in and cash out summed apart and never netted, totalled
by PERSON: every record of theirs at every cardroom of the licensee (31 CFR 1021.313).

- At or over the cardroom's log threshold (default $3,000.00) a transaction is on the
  multiple transaction log (MTL).
- When the day's cash in (or out) would pass $10,000.00 (strictly more), identity must be on
  file first (refused otherwise, naming ``player``), and the day's currency transaction
  report (CTR) is made, or its totals grow.
- Structuring watch: ``structuring_count`` transactions in a day, each within the band just
  under the log threshold or just under the CTR line, flag the person for compliance.

``cash_transaction_record`` runs inside the caller's transaction (a buy-in at a table, or the
cage's purchase or redemption of chips) and locks the player's person, so two transactions of
one person, under any of their records, are summed one after the other.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core import days
from core.errors import DomainError
from core.money import ZERO, money, money_text
from core.permissions import require_role
from core.roles import CASHIER, COMPLIANCE_AUDITOR

from . import ctrs, selectors
from .age import player_age_screen
from .ctrs import ctr_file as ctr_file
from .exclusions import alerting, player_screen
from .models import (
    CTR_THRESHOLD,
    KIND_DIRECTION,
    Cardroom,
    CashKind,
    CashPolicy,
    CashTransaction,
    CurrencyTransactionReport,
    Person,
    Player,
    StructuringFlag,
)

Direction = CashTransaction.Direction
#: A cash transaction of no named kind: chips bought (in) or redeemed (out).
_CHIPS: dict[str, str] = {"in": CashKind.CHIP_PURCHASE, "out": CashKind.CHIP_REDEMPTION}


def cash_transaction_record(
    *,
    cardroom: Cardroom,
    player: Player,
    direction: str,
    amount: Decimal,
    place: str,
    by: User,
    at: datetime | None = None,
    kind: str | None = None,
) -> CashTransaction:
    """One cash transaction on the log, with its MTL mark, CTR and structuring watch. The
    caller holds the transaction and the player's row lock. ``kind`` is its 31 CFR 1021.311
    type (``CashKind``); without it, a purchase of chips (in) or a redemption (out)."""
    kind = kind or _CHIPS.get(direction, "")
    if KIND_DIRECTION.get(kind) != direction:
        named = CashKind(kind).label if kind in CashKind.values else repr(kind)
        raise DomainError(f"A cash {direction} cannot be a {named}.", field="kind")
    at = at or timezone.now()
    day = days.day_of(cardroom.time_zone, cardroom.gaming_day_starts_at, at)
    person_id = _person_lock(player)
    total = selectors.day_total(person_id, day, direction) + amount
    crosses = total > CTR_THRESHOLD
    identified = _require_identity(player, person_id, direction, total, day) if crosses else 0
    policy = selectors.cash_policy(cardroom.pk)
    row = CashTransaction.objects.create(
        cardroom=cardroom,
        player=player,
        direction=direction,
        kind=kind,
        amount=amount,
        place=place,
        gaming_day=day,
        day_total=total,
        logged=amount >= policy.log_threshold,
        recorded_by=by,
        created_at=at,
    )
    if crosses:
        _report(row, person_id, identified, by)
    _watch_structuring(row, person_id, policy, by)
    return row


def _person_lock(player: Player) -> int:
    """Lock the player's person (its id read afresh: a link may have moved the record) so that
    two transactions under two records of one person cannot both miss the line."""
    person_id = Player.objects.values_list("person_id", flat=True).get(pk=player.pk)
    Person.objects.select_for_update().filter(pk=person_id).values_list("pk").get()
    return int(person_id)


def _require_identity(
    player: Player, person_id: int, direction: str, total: Decimal, day: date
) -> int:
    """The record whose identity the CTR rests on: the player's own, or another record of the
    same person with a current ID."""
    if selectors.identity_valid_on(selectors.identity_of(player), day):
        return player.pk
    for identity in selectors.person_identities(person_id):
        if selectors.identity_valid_on(identity, day):
            return identity.player_id
    side = "in" if direction == Direction.IN else "out"
    raise DomainError(
        f"{player}'s cash {side} today would be ${money_text(total)}, over "
        f"${money_text(CTR_THRESHOLD)}: a currency transaction report needs the player's "
        "identity (a current ID) on file first. Record it, then try again.",
        field="player",
        code="identity_required",
    )


def _report(
    row: CashTransaction, person_id: int, identified: int, by: User
) -> CurrencyTransactionReport:
    """The person's CTR of the day, made or grown by ``row`` and raised on the ``identified``
    record; a filed one stays as filed and ``row`` makes its amendment (``patrons.ctrs``)."""
    return ctrs.ctr_for_cash(row, by, person_id=person_id, player_id=identified)


def _just_under(amount: Decimal, policy: selectors.Policy) -> bool:
    """Within the band below the log threshold (not reaching it), or below the CTR line (up to
    $10,000.00, which alone is not over it)."""
    band = policy.structuring_band
    under_log = policy.log_threshold * band <= amount < policy.log_threshold
    return under_log or CTR_THRESHOLD * band <= amount <= CTR_THRESHOLD


def _watch_structuring(
    row: CashTransaction, person_id: int, policy: selectors.Policy, by: User
) -> None:
    """Flag the person once a day when ``structuring_count`` of the day's cash transactions,
    under any of their records, each fall just under the log threshold or the CTR line."""
    if StructuringFlag.objects.filter(person_id=person_id, gaming_day=row.gaming_day).exists():
        return
    near = [
        tx
        for tx in selectors.person_cash(person_id, row.gaming_day).order_by("id")
        if _just_under(tx.amount, policy)
    ]
    if len(near) < policy.structuring_count:
        return
    flag = StructuringFlag.objects.create(
        cardroom_id=row.cardroom_id,
        person_id=person_id,
        player_id=row.player_id,
        gaming_day=row.gaming_day,
        transactions=[tx.pk for tx in near],
        detail=(
            f"{len(near)} cash transactions just under a reporting line today: "
            + ", ".join(f"${money_text(tx.amount)} ({tx.direction})" for tx in near)
        ),
        created_at=row.created_at,
    )
    audit_record(
        actor=by,
        action=AuditAction.STRUCTURING_FLAGGED,
        target=flag,
        payload={
            "player": row.player_id,
            "person": person_id,
            "gaming_day": row.gaming_day,
            "count": len(near),
        },
    )


#: What the exclusion screening calls each direction at the cage.
SCREENED_AS: dict[str, str] = {Direction.IN: "buy chips", Direction.OUT: "redeem chips"}


def cage_cash(*, player: Player, direction: str, amount: object, by: User) -> CashTransaction:
    """At the cage: chips bought with cash (``in``) or chips redeemed for cash (``out``), on
    the cash log; either way the player is screened like a buy-in. The cashier records it, at
    the cage (the cage's own books move in ``cage.services``, which calls
    ``cage_cash_record``)."""
    with alerting(by):
        return cage_cash_record(player=player, direction=direction, amount=amount, by=by)


@transaction.atomic
def cage_cash_record(
    *, player: Player, direction: str, amount: object, by: User
) -> CashTransaction:
    """``cage_cash`` inside the caller's transaction (the caller screens with ``alerting``)."""
    require_role(by, CASHIER, action="record cash at the cage")
    if direction not in Direction.values:
        raise DomainError(
            "The direction is 'in' (chips bought) or 'out' (chips redeemed).", field="direction"
        )
    value = money(amount, field="amount")
    if value <= ZERO:
        raise DomainError("The amount is above $0.00.", field="amount")
    player = type(player).objects.select_for_update().select_related("cardroom").get(pk=player.pk)
    # Chips redeemed are screened like chips bought (4 CCR 12464: the list checked at the cage).
    player_screen(action=SCREENED_AS[direction], player=player, by=by)
    if direction == Direction.IN:
        player_age_screen(action="buy chips", player=player, by=by)
    row = cash_transaction_record(
        cardroom=player.cardroom,
        player=player,
        direction=direction,
        amount=value,
        place=CashTransaction.Place.CAGE,
        by=by,
    )
    audit_record(
        actor=by,
        action=AuditAction.CASH_AT_CAGE,
        target=row,
        payload={"player": player.pk, "direction": direction, "amount": value},
    )
    return row


@transaction.atomic
def cash_policy_set(
    *,
    cardroom: Cardroom,
    by: User,
    log_threshold: object,
    structuring_count: int,
    structuring_band: object,
) -> CashPolicy:
    """A cardroom's cash-reporting settings (compliance's): from the next transaction on."""
    require_role(by, COMPLIANCE_AUDITOR, action="set the cash-reporting policy")
    threshold = money(log_threshold, field="log_threshold")
    if not ZERO < threshold <= CTR_THRESHOLD:
        raise DomainError(
            f"The log threshold is above $0.00 and at most ${money_text(CTR_THRESHOLD)}.",
            field="log_threshold",
        )
    if (
        isinstance(structuring_count, bool)
        or not isinstance(structuring_count, int)
        or not (2 <= structuring_count <= 20)
    ):
        raise DomainError("The structuring count is 2 to 20.", field="structuring_count")
    try:
        band = Decimal(str(structuring_band))
    except ArithmeticError:
        band = Decimal(0)
    if not Decimal("0.50") <= band < 1 or band != band.quantize(Decimal("0.01")):
        raise DomainError(
            "The structuring band is a fraction from 0.50 to 0.99.", field="structuring_band"
        )
    policy, _ = CashPolicy.objects.select_for_update().get_or_create(cardroom=cardroom)
    policy.log_threshold, policy.structuring_count = threshold, structuring_count
    policy.structuring_band = band
    policy.updated_by, policy.updated_at = by, timezone.now()
    policy.save()
    audit_record(
        actor=by,
        action=AuditAction.CASH_POLICY_SET,
        target=policy,
        payload={
            "log_threshold": threshold,
            "structuring_count": structuring_count,
            "structuring_band": str(band),
        },
    )
    return policy
