"""Shared fixtures: the personas the tests talk about, the world they build through the
services, the Hypothesis profiles, and ``nothing_written`` for refusals."""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models.signals import m2m_changed, post_save
from django.test import override_settings
from django.utils import timezone
from hypothesis import settings

from cardroom.api.tokens import forget_roles_of
from core.errors import DomainError
from core.roles import (
    ADMINISTRATOR,
    CASHIER,
    COMPLIANCE_AUDITOR,
    COUNT_TEAM,
    DEALER,
    FLOOR_SUPERVISOR,
)
from patrons.identity import IdentityInput, identity_record
from patrons.models import Cardroom
from tables.models import CardroomMembership
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.self_approval import self_approval_change_decide, self_approval_change_propose
from tables.services.sessions import table_open
from tables.services.setting_changes import setting_change_approve, setting_change_propose
from tables.signatures import SignatureInput
from tests import runtime_role
from tests.clock import T0, Clock
from tests.rows import Rows, rows, stored_models

PASSWORD = "a-test-password"

# --- Hypothesis profiles ---------------------------------------------------------------------
# ``ci`` runs every property with its full number of examples, the same ones on every run
# (derandomized: a failure in CI fails the same way on a laptop with HYPOTHESIS_PROFILE=ci),
# and prints the blob that replays a failure. ``dev``, the default, runs a quarter of them, at
# random, for a quick local run. Loaded here, before any test module builds its settings.
FULL_EXAMPLES = 100  # Hypothesis's own default
settings.register_profile(
    "ci", max_examples=FULL_EXAMPLES, derandomize=True, print_blob=True, database=None
)
settings.register_profile("dev", max_examples=FULL_EXAMPLES // 4)
# CI's run on PostgreSQL: a quarter of the examples, derandomized — the full count runs on
# SQLite beside it (the properties are the engine's and the services'; PostgreSQL adds its
# locks and types, which a quarter exercises), so that CI stays within its time.
settings.register_profile(
    "ci-postgres", max_examples=FULL_EXAMPLES // 4, derandomize=True, print_blob=True, database=None
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def examples(full: int) -> int:
    """A test's number of examples under the loaded profile: ``full`` in ``ci``, the same share
    of it as the profile's in ``dev`` (at least one)."""
    return max(1, full * settings.default.max_examples // FULL_EXAMPLES)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """On PostgreSQL the run connects as the runtime role once the test database is migrated
    (tests/runtime_role.py), and as the superuser again to drop it."""
    if not runtime_role.POSTGRES:
        yield
        return
    with django_db_blocker.unblock():
        roles = runtime_role.install()
        runtime_role.connect_as(roles.runtime)
    yield
    with django_db_blocker.unblock():
        runtime_role.connect_as(runtime_role.ADMIN)
        runtime_role.remove(roles)


@pytest.fixture(autouse=True)
def checkpoint_sink(tmp_path_factory):
    """Each test its own audit checkpoint sink (a file outside the database): the
    database is rolled back after each test, the sink must be too."""
    path = tmp_path_factory.mktemp("sink") / "checkpoints.jsonl"
    with override_settings(AUDIT_CHECKPOINT_SINK=str(path)):
        yield path


@pytest.fixture
def clock_start() -> Clock:
    """The test's clock as it starts: 2024-03-01 18:00 in New York (``T0``). A suite whose story
    starts elsewhere, or whose clock moves otherwise, overrides this one fixture (tests/cage,
    tests/tables, tests/patrons); ``clock`` itself is defined only here."""
    return Clock(T0)


@pytest.fixture
def clock(monkeypatch, clock_start: Clock) -> Clock:
    """Place events at chosen moments: ``django.utils.timezone.now`` answers the clock's time
    (every module reads the time through it: services, rotation, audit, ``auto_now_add``)."""
    monkeypatch.setattr(timezone, "now", lambda: clock_start.now)
    return clock_start


@pytest.fixture
def media(settings, tmp_path):
    """Files the test writes (exports, photos) go to its own temporary ``MEDIA_ROOT``."""
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def signed(user: User) -> SignatureInput:
    """``user`` signing now with their password (every ``make_user`` user has PASSWORD)."""
    return SignatureInput(user.get_username(), PASSWORD)


@pytest.fixture
def password() -> str:
    """Every user made by ``make_user`` has this password."""
    return PASSWORD


@pytest.fixture(autouse=True)
def everyone_works_in_every_cardroom(request):
    """In the suites, every person works in every cardroom (one deployment, one room, as
    before rooms were apart): each new cardroom takes every user, each user given a role every
    cardroom. A test of rooms kept apart says ``@pytest.mark.own_cardrooms``."""
    if request.node.get_closest_marker("own_cardrooms"):
        yield
        return

    def room_made(sender, instance, created, raw=False, **kwargs):
        if created and not raw:
            users = list(User.objects.all())
            CardroomMembership._base_manager.bulk_create(
                [CardroomMembership(user=u, cardroom=instance) for u in users],
                ignore_conflicts=True,
            )
            forget_roles_of([u.pk for u in users])  # a cached token knows its cardrooms

    def role_given(sender, instance, action, reverse, **kwargs):
        if action == "post_add" and not reverse:
            CardroomMembership._base_manager.bulk_create(
                [
                    CardroomMembership(user=instance, cardroom_id=pk)
                    for pk in Cardroom._base_manager.values_list("pk", flat=True)
                ],
                ignore_conflicts=True,
            )
            forget_roles_of([instance.pk])

    post_save.connect(room_made, sender=Cardroom, dispatch_uid="every_room")
    m2m_changed.connect(role_given, sender=User.groups.through, dispatch_uid="every_room")
    yield
    post_save.disconnect(sender=Cardroom, dispatch_uid="every_room")
    m2m_changed.disconnect(sender=User.groups.through, dispatch_uid="every_room")


@pytest.fixture
def make_user(db):
    """Make a user, optionally in a role group: ``make_user("ana", role=DEALER)``."""

    def make(username: str, *, role: str | None = None, **fields) -> User:
        user = User.objects.create_user(username=username, password=PASSWORD, **fields)
        if role:
            user.groups.add(Group.objects.get_or_create(name=role)[0])
        return user

    return make


@pytest.fixture
def supervisor(make_user):
    return make_user("supervisor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")


@pytest.fixture
def dealer(make_user):
    return make_user("dealer", role=DEALER, first_name="Dee", last_name="Lee")


@pytest.fixture
def auditor(make_user):
    return make_user("auditor", role=COMPLIANCE_AUDITOR, first_name="Ari", last_name="Kim")


def a_person(username: str, role: str, first_name: str, last_name: str) -> User:
    """A person of ``role`` with the tests' password, made on first use (a helper's person
    outside any fixture)."""
    user, created = User.objects.get_or_create(
        username=username, defaults={"first_name": first_name, "last_name": last_name}
    )
    if created:
        user.set_password(PASSWORD)
        user.save()
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


def an_administrator() -> User:
    """The administrator who creates the tests' cardrooms (made on first use): cardrooms and
    R17's self-approval switch are the administrators'."""
    return a_person("administrator", ADMINISTRATOR, "Jo", "Blake")


@pytest.fixture
def administrator(db):
    return an_administrator()


@pytest.fixture
def second_administrator(make_user):
    return make_user("administrator2", role=ADMINISTRATOR, first_name="Lee", last_name="Moss")


@pytest.fixture
def allow_self_approval(administrator, second_administrator):
    """``allow_self_approval(cardroom)``: switched on by two administrators, as R17 asks."""

    def switch_on(cardroom):
        change = self_approval_change_propose(
            cardroom=cardroom, allowed=True, reason="One supervisor on nights", by=administrator
        )
        self_approval_change_decide(
            change=change,
            approve=True,
            signature=signed(second_administrator),
            by=second_administrator,
        )
        cardroom.refresh_from_db()
        return cardroom

    return switch_on


# --- a world built through the services, shared by the suites (each may override a piece) ----


@pytest.fixture
def second_supervisor(make_user):
    """The other floor supervisor on duty: the one who approves (R17 dual control)."""
    return make_user("supervisor2", role=FLOOR_SUPERVISOR, first_name="Gus", last_name="Park")


@pytest.fixture
def other_dealer(make_user):
    """A dealer who is not on duty at the test's tables."""
    return make_user("dealer2", role=DEALER, first_name="Rae", last_name="Ng")


@pytest.fixture
def counter(make_user):
    """A member of the count team: enters drop counts, nothing else."""
    return make_user("counter", role=COUNT_TEAM, first_name="Cam", last_name="Diaz")


@pytest.fixture
def second_counter(make_user):
    """The count team's second member, who signs a drop count beside ``counter``."""
    return make_user("counter2", role=COUNT_TEAM, first_name="Jo", last_name="Fox")


def a_cashier() -> User:
    """The cage's cashier (made on first use): records players' cash at the cage and the
    cage's transactions."""
    return a_person("cashier", CASHIER, "Cy", "Moss")


@pytest.fixture
def cashier(db):
    return a_cashier()


@pytest.fixture
def second_cashier(make_user):
    """The next shift's cashier, who takes the cage over from ``cashier``."""
    return make_user("cashier2", role=CASHIER, first_name="Bea", last_name="Hart")


@pytest.fixture
def approve(supervisor, second_supervisor):
    """A change proposed by one floor supervisor and approved by the other (R17): the new
    settings version."""

    def change(table, reason: str = "Floor decision", **values):
        proposed = setting_change_propose(table=table, values=values, reason=reason, by=supervisor)
        return setting_change_approve(
            change=proposed, signature=signed(second_supervisor), by=second_supervisor
        )

    return change


@pytest.fixture
def cardroom(administrator):
    """A cardroom whose gaming day starts at 06:00 in New York."""
    return cardroom_create(name="Harbour Cardroom", time_zone="America/New_York", by=administrator)


@pytest.fixture
def make_table(cardroom, supervisor, dealer):
    """``make_table("T", banking="house", settings={...})``: a table, open with the dealer; a
    house-banked one with its opening count (``tests.racks``) unless ``counted=False``."""

    def make(name: str, *, banking: str = "designated_player", counted: bool = True, **kwargs):
        table = table_create(cardroom=cardroom, name=name, banking=banking, by=supervisor, **kwargs)
        table_open(table=table, dealer=dealer, by=supervisor)
        if banking == "house" and counted:
            from tests.racks import rack_opening_count  # tests.racks imports this module

            rack_opening_count(table)
        return table

    return make


@pytest.fixture
def dp_table(make_table):
    """A designated-player table (fee $1.00 from every spot and the DP, R12), open."""
    return make_table("DP table")


@pytest.fixture
def house_table(make_table):
    """A house-banked table (paytable bonuses, no fee), open."""
    return make_table("House table", banking="house")


@pytest.fixture
def make_player(cardroom, dealer):
    count = iter(range(1, 10_000))

    def make(name: str | None = None):
        return player_create(cardroom=cardroom, name=name or f"Player {next(count)}", by=dealer)

    return make


@pytest.fixture
def seat(make_player, dealer):
    """``seat(table, 3, buy_in="300")``: a new player (or ``player``) sits down and buys in."""

    def sit(table, number: int, *, buy_in: str = "1000", player=None):
        return seat_player(
            table=table, seat=number, player=player or make_player(), buy_in=buy_in, by=dealer
        )

    return sit


@pytest.fixture
def identify(dealer):
    """``identify(player)``: a current ID on file (patrons), as a CTR needs."""

    def record(player, *, number: str = "D1234567", born=date(1980, 5, 17)):
        with transaction.atomic():
            return identity_record(
                player=player,
                identity=IdentityInput(
                    date_of_birth=born,
                    id_type="driver_licence",
                    id_number=number,
                    id_issuer="CA",
                    id_expires=date.today() + timedelta(days=3650),
                ),
                by=dealer,
            )

    return record


DP_SEATS = (1, 2, 4, 5, 6)  # seats 3 and 7 stay empty, for second spots (R6)
HOUSE_SEATS = (1, 2, 3, 4)


@pytest.fixture
def dp_players(dp_table, seat) -> dict:
    """Five players at the DP table, $1,000 each."""
    return {number: seat(dp_table, number) for number in DP_SEATS}


@pytest.fixture
def house_players(house_table, seat) -> dict:
    """Four players at the house table, $1,000 each."""
    return {number: seat(house_table, number) for number in HOUSE_SEATS}


# --- refusals write nothing ------------------------------------------------------------------

# The apps whose rows are the cardroom's state and books: the audit log and its chain head,
# tables, settings, changes, sessions, players, seats, stacks, the rotation log, hands, spots,
# settlements, fees, exports, the cage.
WATCHED_APPS = ("audit", "tables", "wagers", "rake", "compliance", "patrons", "cage")
REFUSAL_AUDITED_IN = ("audit.AuditEvent", "audit.ChainHead", "audit.RefusalTally")


def _rows() -> Rows:
    # Not the memberships: the suites' fixture puts a person made inside the block (by a lazy
    # fixture) in every cardroom (``everyone_works_in_every_cardroom``).
    watched = [m for m in stored_models(WATCHED_APPS) if m is not CardroomMembership]
    return rows(watched)


def _changes(before: Rows, after: Rows) -> list[str]:
    """What differs, model by model: rows added, removed or changed."""
    changes = []
    for label, old in before.items():
        new = after[label]
        added = [new[pk] for pk in new.keys() - old.keys()]
        removed = [old[pk] for pk in old.keys() - new.keys()]
        changed = [(old[pk], new[pk]) for pk in old.keys() & new.keys() if old[pk] != new[pk]]
        if added or removed or changed:
            changes.append(f"{label}: added {added}, removed {removed}, changed {changed}")
    return changes


def _assert_unchanged(before: Rows, after: Rows, audited: tuple[str, ...]) -> None:
    if audited:
        known = before["audit.AuditEvent"].keys()
        events = apps.get_model("audit", "AuditEvent").objects.exclude(pk__in=known)
        assert list(events.values_list("action", flat=True)) == list(audited)
        for label in REFUSAL_AUDITED_IN:
            del before[label], after[label]
    changes = _changes(before, after)
    assert not changes, "the refusal wrote:\n" + "\n".join(changes)


@pytest.fixture
def nothing_written(db):
    """``with nothing_written(): <a refused call>``: what the block does adds, removes and
    changes no row of the cardroom's state or books, append-only or not (a refusal rolls
    back whole). Checked also when an exception leaves the block.

    ``audited=("permission.refused",)``: except exactly those new audit events, in that order,
    and the chain head they move: the API and the screens record a refused permission after
    the refused change rolled back.
    """

    @contextmanager
    def check(*, audited: tuple[str, ...] = ()) -> Iterator[None]:
        before = _rows()
        try:
            yield
        finally:
            _assert_unchanged(before, _rows(), audited)

    return check


@pytest.fixture
def refusal(nothing_written):
    """``with refusal(Conflict, field="seat", says="is taken") as refused: <the call>``: the
    call raises exactly ``kind`` (a Conflict is not taken for a plain DomainError), naming
    ``field`` (None where the role or the state as a whole is at fault) in a message that a
    person can act on and that says ``says``; and it writes nothing (``nothing_written``, with
    its ``audited``). ``refused.value`` is the error, for more checks after the block."""

    @contextmanager
    def expect(
        kind: type[DomainError], *, field: str | None, says: str, audited: tuple[str, ...] = ()
    ) -> Iterator[pytest.ExceptionInfo[DomainError]]:
        with nothing_written(audited=audited), pytest.raises(DomainError) as refused:
            yield refused
        error = refused.value
        assert type(error) is kind, f"{type(error).__name__}: {error.message}"
        assert (error.field, says in error.message) == (field, True), error.message
        assert len(error.message) > 15, error.message

    return expect


def _execute_sql_flush_past_append_only(execute_sql_flush):
    """Transactional tests empty every table between tests; append-only tables refuse that
    (core.db). PostgreSQL: as a superuser (the runtime role the run connects as
    switches to one), switch triggers off for the flush (``session_replication_role``).
    SQLite has no such switch: drop and re-create them."""

    def flush(self, sql_list):
        connection = self.connection
        if connection.vendor == "postgresql":
            with runtime_role.as_superuser(connection):
                with connection.cursor() as cursor:
                    cursor.execute("SET session_replication_role = replica")
                try:
                    execute_sql_flush(self, sql_list)
                finally:
                    with connection.cursor() as cursor:
                        cursor.execute("SET session_replication_role = DEFAULT")
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
            triggers = cursor.fetchall()
            for name, _ in triggers:
                cursor.execute(f'DROP TRIGGER "{name}"')
        try:
            execute_sql_flush(self, sql_list)
        finally:
            with connection.cursor() as cursor:
                for _, sql in triggers:
                    cursor.execute(sql)

    return flush


BaseDatabaseOperations.execute_sql_flush = _execute_sql_flush_past_append_only(
    BaseDatabaseOperations.execute_sql_flush
)
