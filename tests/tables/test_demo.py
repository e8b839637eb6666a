import re
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.urls import reverse

from audit.models import AuditEvent
from core.roles import ROLES, role_of
from patrons.models import Cardroom, Player
from tables import catalogue, figures, selectors
from tables.demo import DEMO_CARDROOM, DEMO_PAYTABLES, DEMO_TABLES, DEMO_USERS
from tables.models import Seating, StackEntry, Table, TableSession, TableSettings
from tables.rotation import designated_player_rotate
from tables.services.seating import seating_leave
from wagers.models import Settlement

pytestmark = pytest.mark.django_db


def load_demo() -> str:
    """Run the command as a developer would and return what it printed."""
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def logs_in(client, username: str, password: str) -> bool:
    """Through the login form, as a person would (and past django-axes, which needs the
    request that ``client.login`` does not give it)."""
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302 and response["Location"] == reverse("home")


def snapshot() -> list[tuple]:
    users = User.objects.order_by("username").values_list(
        "username", "password", "first_name", "last_name", "is_staff", "is_active", "groups__name"
    )
    return [*users, *Group.objects.order_by("name").values_list("name")]


def test_load_demo_creates_the_role_groups_and_a_user_per_role():
    load_demo()
    assert set(Group.objects.values_list("name", flat=True)) == set(ROLES)
    assert {role_of(User.objects.get(username=d.username)) for d in DEMO_USERS} == set(ROLES)


def test_running_load_demo_twice_changes_nothing():
    load_demo()
    first = snapshot()
    load_demo()
    assert snapshot() == first
    assert (User.objects.count(), Group.objects.count()) == (len(DEMO_USERS), len(ROLES))


def test_each_demo_user_is_in_its_role_group():
    load_demo()
    for demo in DEMO_USERS:
        user = User.objects.get(username=demo.username)
        assert list(user.groups.values_list("name", flat=True)) == [demo.role]


def test_each_demo_user_can_log_in_with_the_printed_password(client):
    printed = load_demo()
    logins = re.findall(r"^\s+(\w+)\s+(\S+)\s", printed, flags=re.MULTILINE)
    assert {username for username, _ in logins} == {
        "floor",
        "floor2",
        "dealer",
        "compliance",
        "count",
        "count2",
        "cashier",
        "admin",
    }
    for username, password in logins:
        assert logs_in(client, username, password), username
        client.logout()


def test_load_demo_restores_a_changed_demo_password(client):
    load_demo()
    floor = User.objects.get(username="floor")
    floor.set_password("something-else")
    floor.save()
    printed = load_demo()
    password = re.search(r"^\s+floor\s+(\S+)", printed, flags=re.MULTILINE).group(1)
    assert logs_in(client, "floor", password)


# --- the demo tables: open, with players seated with chips -----------------------------------


def demo_tables() -> dict[str, Table]:
    cardroom = Cardroom.objects.get(name=DEMO_CARDROOM)
    return {table.banking: table for table in cardroom.tables.all()}


def test_load_demo_creates_a_designated_player_table_and_a_house_banked_table():
    load_demo()
    tables = demo_tables()
    assert set(tables) == {"designated_player", "house"}
    assert {table.name for table in tables.values()} == {name for name, _, _ in DEMO_TABLES}
    assert selectors.current_settings(tables["house"]).rake_mode == "none"


def test_both_demo_tables_are_open_with_the_demo_dealer():
    load_demo()
    dealer = User.objects.get(username="dealer")
    for table in demo_tables().values():
        session = selectors.open_session(table)
        assert session is not None, table
        assert session.dealer == dealer


def test_players_sit_with_chips_at_both_demo_tables():
    """Each bought in; at the designated-player table the shuffler's demo hand was played
    since (cage.demo_shuffler): the chips moved between them, and the fees to the drop (R15)."""
    load_demo()
    for name, banking, seats in DEMO_TABLES:
        table = Table.objects.get(name=name)
        seated = {s.seat: s for s in selectors.seated(table)}
        assert {n: s.player.name for n, s in seated.items()} == {n: p for n, p, _ in seats}
        for seating in seated.values():
            assert seating.entries.order_by("pk")[0].reason == StackEntry.Reason.BUY_IN
        bought = sum(Decimal(buy_in) for _, _, buy_in in seats)
        today = Settlement.objects.filter(hand__table=table, hand__session__closed_at=None)
        fees = sum((entry.house_rake for entry in today), Decimal(0))
        if banking == "house":
            assert {n: s.stack for n, s in seated.items()} == {n: Decimal(b) for n, _, b in seats}
        else:
            assert sum(s.stack for s in seated.values()) + fees == bought


def test_a_newcomer_can_offer_the_designated_player_position_at_once():
    load_demo()
    table = demo_tables()["designated_player"]
    record = designated_player_rotate(table=table, by=User.objects.get(username="dealer"))
    assert record.designated_player is not None


def test_the_demo_tables_are_built_through_the_services_so_every_step_is_audited():
    load_demo()
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {
        "cardroom.created",
        "table.created",
        "table.opened",
        "player.created",
        "seat.taken",
        "stack.buy_in",
    } <= actions


def tables_snapshot() -> tuple[int, ...]:
    return (
        Cardroom.objects.count(),
        Table.objects.count(),
        TableSettings.objects.count(),
        TableSession.objects.count(),
        Player.objects.count(),
        Seating.objects.count(),
        StackEntry.objects.count(),
        AuditEvent.objects.count(),
    )


def test_running_load_demo_twice_adds_no_seating_stack_entry_or_audit_event():
    load_demo()
    first = tables_snapshot()
    load_demo()
    assert tables_snapshot() == first


def test_load_demo_reseats_a_demo_player_who_left():
    load_demo()
    table = demo_tables()["designated_player"]
    floor = User.objects.get(username="floor")
    leaving = selectors.seated(table).get(seat=1)
    seating_leave(seating=leaving, by=floor)
    load_demo()
    back = selectors.seated(table).get(seat=1)
    assert (back.player, back.stack) == (leaving.player, Decimal("500.00"))


# --- the catalogue of approved paytables (R17, game-math.md) ---------------------------------


def test_the_demo_catalogue_holds_the_defaults_and_two_posted_alternatives_under_dual_control():
    load_demo()
    cardroom = Cardroom.objects.get(name=DEMO_CARDROOM)
    entries = catalogue.paytable_catalogue(cardroom)
    assert [(entry.kind, entry.text) for entry in entries] == [
        ("flush_paytable", "4:1, 5:10, 6:100, 7:300"),
        ("flush_paytable", "4:2, 5:10, 6:20, 7:100"),
        ("flush_paytable", "4:2, 5:10, 6:50, 7:200"),
        ("straight_flush_paytable", "3:8, 4:60, 5:100, 6:500, 7:1000"),
        ("straight_flush_paytable", "3:9, 4:50, 5:100, 6:200, 7:500"),
    ]
    for kind, lines in DEMO_PAYTABLES:
        entry = next(e for e in entries if (e.kind, e.lines) == (kind, lines))
        assert entry.added.proposed_by.username == "floor"
        assert entry.added.decision.decided_by.username == "floor2"
        # Posted alternatives a house-banked table may use: the house keeps an edge.
        assert figures.bonus_figures(kind, "paytable", lines).return_ < 1
    assert selectors.current_settings(demo_tables()["house"]).flush_paytable == {
        "4": 1,
        "5": 10,
        "6": 100,
        "7": 300,
    }
