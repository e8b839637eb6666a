"""Shared fixtures: the personas the tests talk about."""

import pytest
from django.contrib.auth.models import Group, User
from django.db.backends.base.operations import BaseDatabaseOperations

from cardroom.roles import COMPLIANCE_AUDITOR, DEALER, FLOOR_SUPERVISOR

PASSWORD = "a-test-password"


@pytest.fixture
def password() -> str:
    """Every user made by ``make_user`` has this password."""
    return PASSWORD


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


def _execute_sql_flush_past_append_only(execute_sql_flush):
    """Transactional tests empty every table between tests; append-only tables refuse that
    (cardroom.db). PostgreSQL: as superuser, switch triggers off for the flush
    (``session_replication_role``). SQLite has no such switch: drop and re-create them."""

    def flush(self, sql_list):
        connection = self.connection
        if connection.vendor == "postgresql":
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
