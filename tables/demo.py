"""Demo data for a fresh clone: the role groups, one user per role (a second floor supervisor,
who approves what the first proposes — R17 dual control — and two for the count team), a
cardroom with a designated-player table and a house-banked table, both open with players seated
with chips, and a catalogue of approved paytables: the new-table defaults and two posted
alternatives. The gaming day played and closed before them is ``cage.demo``'s."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.roles import (
    ADMINISTRATOR,
    CASHIER,
    COMPLIANCE_AUDITOR,
    COUNT_TEAM,
    DEALER,
    FLOOR_SUPERVISOR,
    setup_role_groups,
)
from patrons.models import Cardroom, Player

from .models import CardroomMembership, Seating, StaffProfile, Table, TableSession
from .signatures import SignatureInput, SigningDevice

# Shared by every demo user and printed by `load_demo`: this is demo data, not a secret.
DEMO_PASSWORD = "cardroom-demo"
#: Every demo user's signing PIN (tables.signatures), printed by `load_demo` too.
DEMO_PIN = "2580"


@dataclass(frozen=True)
class DemoUser:
    username: str
    first_name: str
    last_name: str
    role: str
    # Supervisors and auditors may look through the (read-only) admin site.
    is_staff: bool = False


DEMO_USERS = (
    DemoUser("floor", "Morgan", "Reyes", FLOOR_SUPERVISOR, is_staff=True),
    DemoUser("floor2", "Jordan", "Lee", FLOOR_SUPERVISOR, is_staff=True),
    DemoUser("dealer", "Sam", "Carter", DEALER),
    DemoUser("compliance", "Alex", "Nguyen", COMPLIANCE_AUDITOR, is_staff=True),
    # The count team counts in pairs: two logins.
    DemoUser("count", "Robin", "Ellis", COUNT_TEAM),
    DemoUser("count2", "Jamie", "Okafor", COUNT_TEAM),
    # The cage.
    DemoUser("cashier", "Drew", "Marsh", CASHIER),
    # Creates cardrooms and governs R17's self-approval switch (with a second administrator).
    DemoUser("admin", "Quinn", "Blake", ADMINISTRATOR, is_staff=True),
)


DEMO_CARDROOM = "Demo Cardroom"
# (table name, banking, [(seat, player, buy-in)])
DEMO_TABLES = (
    (
        "Table 1 (designated player)",
        "designated_player",
        [(1, "Avery Stone", "500"), (3, "Blake Moreno", "300"), (5, "Casey Park", "400")],
    ),
    ("Table 2 (house banked)", "house", [(2, "Devon Hale", "250"), (4, "Emery Quinn", "200")]),
)

# The demo catalogue (R17): a new cardroom starts with the new-table defaults (Flush Bonus
# 4:1, 5:10, 6:100, 7:300 for house-banked tables, 92.1928%; 4:2, 5:10, 6:50, 7:200 for
# designated-player tables, 92.7577% versus the DP; Straight Flush Bonus 3:8, 4:60, 5:100,
# 6:500, 7:1000, 92.6115%). These alternatives are posted in cardrooms (e.g. Fortune Casino,
# Renton WA: Flush 7:100, 6:20, 5:10, 4:2 and Straight Flush 7:500, 6:200, 5:100, 4:50, 3:9);
# both keep a house edge in paytable mode: 94.6962% and 93.6485%. ``floor`` proposes them,
# ``floor2`` approves them.
DEMO_PAYTABLES = (
    ("flush_paytable", {"4": 2, "5": 10, "6": 20, "7": 100}),
    ("straight_flush_paytable", {"3": 9, "4": 50, "5": 100, "6": 200, "7": 500}),
)


@transaction.atomic
def load_demo_data() -> list[DemoUser]:
    """Create (or restore) the demo users and tables; running it again changes nothing."""
    users = load_demo_users()
    load_demo_tables()
    return users


def load_demo_users() -> list[DemoUser]:
    """The role groups and the demo users, with the demo password."""
    groups = {group.name: group for group in setup_role_groups()}
    User = get_user_model()
    for demo in DEMO_USERS:
        user, _ = User.objects.update_or_create(
            username=demo.username,
            defaults={
                "first_name": demo.first_name,
                "last_name": demo.last_name,
                "is_staff": demo.is_staff,
                "is_active": True,
            },
        )
        # Only when needed: set_password salts afresh, so calling it always would rewrite
        # the row on every run.
        if not user.check_password(DEMO_PASSWORD):
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        user.groups.set([groups[demo.role]])
        _demo_profile(user)
        _record_role(user, demo.role)
    return list(DEMO_USERS)


def _demo_profile(user: User) -> None:
    """Set up by its person, with the demo PIN: the demo's people sign as real staff do."""
    profile, _ = StaffProfile.objects.get_or_create(user=user)
    changed = []
    if profile.set_up_at is None or profile.password_change_due:
        profile.set_up_at = profile.set_up_at or timezone.now()
        profile.password_change_due = False
        changed += ["set_up_at", "password_change_due"]
    if not profile.pin or not check_password(DEMO_PIN, profile.pin):
        profile.pin, profile.pin_set_at = make_password(DEMO_PIN), timezone.now()
        changed += ["pin", "pin_set_at"]
    if changed:
        profile.save(update_fields=changed)


def demo_signature(username: str) -> SignatureInput:
    """A demo user signing with the demo password (the demo knows it)."""
    return SignatureInput(username, DEMO_PASSWORD, SigningDevice(device="load_demo"))


def _record_role(user: User, role: str) -> None:
    """The demo accounts' roles go on the audit log as the staff services' do (the contract
    of ``audit.role_events``), so that ``verify_state`` finds every role group membership
    audited; nothing is recorded when the log already says so (running again changes
    nothing)."""
    from audit.actions import AuditAction  # like the services: keep this module light
    from audit.role_events import latest_role_events
    from audit.services import audit_record

    known = latest_role_events([user.pk]).get(user.pk)
    if known is not None and known.role == role:
        return
    payload: dict[str, str | None]
    if known is None:
        action = AuditAction.STAFF_CREATED
        payload = {"username": user.username, "name": user.get_full_name(), "role": role}
    else:
        action = AuditAction.STAFF_ROLE_SET
        payload = {"username": user.username, "role": role, "was": known.role}
    audit_record(actor=None, action=action, target=user, payload=payload)


def load_demo_tables() -> None:
    """Through the services, as a floor supervisor would: every step is in the audit log."""
    # The services import the audit app; keep this module light.
    from .services.cardrooms import cardroom_create
    from .services.configuration import table_create
    from .services.seating import player_create, seat_player
    from .services.sessions import table_open

    User = get_user_model()
    floor, dealer = User.objects.get(username="floor"), User.objects.get(username="dealer")
    admin = User.objects.get(username="admin")
    cardroom = Cardroom.objects.filter(name=DEMO_CARDROOM).first() or cardroom_create(
        name=DEMO_CARDROOM, time_zone="America/Los_Angeles", by=admin
    )
    # Every demo person works in the demo cardroom.
    CardroomMembership.objects.bulk_create(
        [
            CardroomMembership(user=user, cardroom=cardroom)
            for user in User.objects.filter(username__in=[d.username for d in DEMO_USERS])
        ],
        ignore_conflicts=True,
    )
    _load_catalogue(cardroom, floor, User.objects.get(username="floor2"))
    for name, banking, seats in DEMO_TABLES:
        table = Table.objects.filter(cardroom=cardroom, name=name).first()
        if table is None:
            table = table_create(cardroom=cardroom, name=name, banking=banking, by=floor)
        if not TableSession.objects.filter(table=table, closed_at=None).exists():
            table_open(table=table, dealer=dealer, by=floor)
        for seat, player_name, buy_in in seats:
            player = Player.objects.filter(cardroom=cardroom, name=player_name).first()
            if player is None:
                player = player_create(cardroom=cardroom, name=player_name, by=floor)
            seated = Seating.objects.filter(left_at=None)
            # Run again after play: a demo player who left sits down again, if the seat is free.
            if (
                not seated.filter(player=player).exists()
                and not seated.filter(table=table, seat=seat).exists()
            ):
                seat_player(table=table, seat=seat, player=player, buy_in=buy_in, by=floor)


def _load_catalogue(cardroom: Cardroom, floor: User, floor2: User) -> None:
    """The posted alternatives, proposed by one demo supervisor and approved by the other."""
    from . import catalogue  # like the services: it imports the audit app

    known = {
        (entry.kind, catalogue.paytable_key(entry.lines))
        for entry in catalogue.paytable_catalogue(cardroom)
    } | {
        (change.paytable, catalogue.paytable_key(change.lines))
        for change in catalogue.pending_paytable_changes(cardroom)
    }
    for kind, lines in DEMO_PAYTABLES:
        if (kind, catalogue.paytable_key(lines)) in known:
            continue  # held already, or waiting for a supervisor's decision
        change = catalogue.paytable_change_propose(
            cardroom=cardroom,
            kind=kind,
            lines=lines,
            reason="A paytable posted in other cardrooms, for the demo tables to choose.",
            by=floor,
        )
        catalogue.paytable_change_approve(
            change=change, signature=demo_signature(floor2.username), by=floor2
        )
