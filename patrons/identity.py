"""Players' identity: recorded by the floor (or at the table), read masked by everyone but
compliance, whose every look at a whole ID number is an audit event."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.contrib.auth.models import User
from django.core.files.base import File
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR, TABLE_STAFF

from . import hooks
from .ctr_person import CtrPerson, masked_tin, person_clean
from .keys import id_hash, normal_id
from .masking import masked_id
from .models import IdType, Player, PlayerIdentity
from .persons import identity_unique_check, person_matches_find

#: Who records a player's identity: the floor and the dealer (taking the ID at the table),
#: and compliance.
RECORDERS = (*TABLE_STAFF, COMPLIANCE_AUDITOR)


@dataclass(frozen=True)
class IdentityInput:
    """An identity as given: the date of birth and one ID, and the person as a CTR names
    them (``patrons.ctr_person``; all blank when not given)."""

    date_of_birth: date
    id_type: str
    id_number: str
    id_issuer: str
    id_expires: date
    person: CtrPerson = field(default_factory=CtrPerson)

    def hashed(self) -> str:
        return id_hash(self.id_type, self.id_issuer, self.id_number)


def identity_check(identity: IdentityInput, *, today: date) -> None:
    """Refuse an identity that identifies nobody: the field at fault named."""
    if identity.id_type not in IdType.values:
        kinds = ", ".join(IdType.values)
        raise DomainError(f"The ID type is one of: {kinds}.", field="id_type")
    number = normal_id(identity.id_number)
    if not 4 <= len(number) <= 40:
        raise DomainError("An ID number has 4 to 40 letters and digits.", field="id_number")
    if not identity.id_issuer.strip() or len(identity.id_issuer.strip()) > 60:
        raise DomainError("Name the ID's issuer (a state, a country).", field="id_issuer")
    if identity.date_of_birth >= today:
        raise DomainError("The date of birth is in the past.", field="date_of_birth")
    if identity.id_expires < today:
        raise DomainError(
            f"This ID expired on {identity.id_expires:%Y-%m-%d}: it does not identify the "
            "player. Ask for a current one.",
            field="id_expires",
        )


#: A photo of the player (optional): a JPEG or PNG of at most 5 MB, known by its first bytes
#: (a name or a content type is only what the sender says).
PHOTO_MAX_BYTES = 5 * 1024 * 1024
PHOTO_SIGNATURES = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n")


def photo_check(photo: File) -> None:
    """Refuse a photo that is not a JPEG or PNG image, or is too large, naming the field."""
    if photo.size is None or photo.size > PHOTO_MAX_BYTES:
        raise DomainError("The photo is at most 5 MB.", field="photo")
    photo.seek(0)
    head = photo.read(8)
    photo.seek(0)
    if not any(head.startswith(signature) for signature in PHOTO_SIGNATURES):
        raise DomainError("The photo is a JPEG or PNG image.", field="photo")


@transaction.atomic
def identity_record(
    *, player: Player, identity: IdentityInput, by: User, photo: File | None = None
) -> PlayerIdentity:
    """Put a player's identity on file (or replace it with a newer ID); the audit event
    shows the number masked."""
    require_role(by, *RECORDERS, action="record a player's identity")
    identity_check(identity, today=timezone.localdate())
    person = person_clean(identity.person)
    if photo is not None:
        photo_check(photo)
    player = Player.objects.select_related("cardroom").get(pk=player.pk)
    identity_unique_check(player=player, hashed_id=identity.hashed())
    number = normal_id(identity.id_number)
    row = PlayerIdentity.objects.filter(player_id=player.pk).first() or PlayerIdentity(
        player=player
    )
    replaced = row.pk is not None
    _person_set(row, person)
    row.date_of_birth = identity.date_of_birth
    row.id_type = identity.id_type
    row.id_number = number  # type: ignore[assignment]  # the field is untyped (a library)
    row.id_issuer = identity.id_issuer.strip()
    row.id_expires = identity.id_expires
    row.id_hash = identity.hashed()
    row.recorded_by, row.recorded_at = by, timezone.now()
    if photo is not None:
        row.photo = photo
    row.save()
    hooks.identity_recorded(player, by=by)
    audit_record(
        actor=by,
        action=AuditAction.PLAYER_IDENTITY_RECORDED,
        target=player,
        payload={
            "id_type": row.id_type,
            "id_number": masked_id(number),
            "id_issuer": row.id_issuer,
            "id_expires": row.id_expires,
            "photo": bool(row.photo),
            "tin": masked_tin(row.tin),
            "tin_type": row.tin_type,
            "replaced": replaced,
        },
    )
    person_matches_find(player=player, by=by)
    return row


def _person_set(row: PlayerIdentity, person: CtrPerson) -> None:
    """The CTR's person onto the identity. A TIN not given keeps the one on file (it is never
    shown whole again, so nobody could give it back); a new one replaces it."""
    for name in ("last_name", "first_name", "middle_name", "street", "city", "state"):
        setattr(row, name, getattr(person, name))
    row.zip_code, row.country, row.occupation = person.zip_code, person.country, person.occupation
    if person.tin:
        row.tin = person.tin  # type: ignore[assignment]  # the field is untyped (a library)
        row.tin_last4, row.tin_type = person.tin[-4:], person.tin_type


#: What compliance's "show" shows whole: the ID number, or the TIN.
SHOWN = ("id_number", "tin")


@transaction.atomic
def identity_reveal(*, player: Player, by: User, reason: str = "", show: str = "id_number") -> str:
    """Compliance's explicit "show": the whole ID number (or, ``show="tin"``, the whole TIN),
    and an audit event saying who saw what of whose, and why. Nobody else is shown it."""
    require_role(by, COMPLIANCE_AUDITOR, action="see a player's whole ID number or TIN")
    if show not in SHOWN:
        raise DomainError("Show is 'id_number' or 'tin'.", field="show")
    row = PlayerIdentity.objects.filter(player_id=player.pk).first()
    if row is None:
        raise DomainError(f"{player} has no identity on file.", field="player")
    if show == "tin" and not row.tin:
        raise DomainError(f"{player} has no TIN on file.", field="show")
    value = str(row.tin if show == "tin" else row.id_number)
    payload: dict[str, str] = {"id_number": masked_id(row.id_number), "reason": reason.strip()}
    if show == "tin":
        payload = {"show": "tin", "tin": masked_tin(value), "reason": reason.strip()}
    audit_record(
        actor=by, action=AuditAction.PLAYER_IDENTITY_REVEALED, target=player, payload=payload
    )
    return value
