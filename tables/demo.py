"""Demo data for a fresh clone: the role groups, one user per role (two for the count team), a
cardroom with a designated-player table and a house-banked table, both open with players
seated with chips. The gaming day played and closed before them is ``cage.demo``'s."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from cardroom.kernel.roles import (
    COMPLIANCE_AUDITOR,
    COUNT_TEAM,
    DEALER,
    FLOOR_SUPERVISOR,
    setup_role_groups,
)

from .models import Cardroom, Player, Seating, Table, TableSession

# Shared by every demo user and printed by `load_demo`: this is demo data, not a secret.
DEMO_PASSWORD = "cardroom-demo"


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
    DemoUser("dealer", "Sam", "Carter", DEALER),
    DemoUser("compliance", "Alex", "Nguyen", COMPLIANCE_AUDITOR, is_staff=True),
    # The count team counts in pairs: two logins.
    DemoUser("count", "Robin", "Ellis", COUNT_TEAM),
    DemoUser("count2", "Jamie", "Okafor", COUNT_TEAM),
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
    return list(DEMO_USERS)


def load_demo_tables() -> None:
    """Through the services, as a floor supervisor would: every step is in the audit log."""
    from . import services  # the services import the audit app; keep this module light

    User = get_user_model()
    floor, dealer = User.objects.get(username="floor"), User.objects.get(username="dealer")
    cardroom = Cardroom.objects.filter(name=DEMO_CARDROOM).first() or services.cardroom_create(
        name=DEMO_CARDROOM, time_zone="America/Los_Angeles", by=floor
    )
    for name, banking, seats in DEMO_TABLES:
        table = Table.objects.filter(cardroom=cardroom, name=name).first()
        if table is None:
            table = services.table_create(cardroom=cardroom, name=name, banking=banking, by=floor)
        if not TableSession.objects.filter(table=table, closed_at=None).exists():
            services.table_open(table=table, dealer=dealer, by=floor)
        for seat, player_name, buy_in in seats:
            player = Player.objects.filter(cardroom=cardroom, name=player_name).first()
            if player is None:
                player = services.player_create(cardroom=cardroom, name=player_name, by=floor)
            seated = Seating.objects.filter(left_at=None)
            # Run again after play: a demo player who left sits down again, if the seat is free.
            if (
                not seated.filter(player=player).exists()
                and not seated.filter(table=table, seat=seat).exists()
            ):
                services.seat_player(table=table, seat=seat, player=player, buy_in=buy_in, by=floor)
