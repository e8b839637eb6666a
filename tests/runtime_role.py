"""The PostgreSQL run connects as the runtime role, as production does (docs/production.md,
"Database roles"): a privilege the runtime role lacks fails the test that needs it.

Once the test database is migrated (as the superuser ``DATABASE_URL`` names), ``db_roles``'s
steps make an owner, which is given every table, and the runtime role, granted what
production grants it; then every connection of the run — threads, servers and workers the
tests start — logs in as the runtime role. The roles are named after the test database:
PostgreSQL's roles are the whole cluster's, and two runs on two databases side by side must
not share them.

A test that plays the attacker (rewrites an append-only row, switches the triggers off) or
sets up what only an owner may (``setval``, ``ANALYZE``) says so: ``as_owner()`` or
``as_superuser()`` switch the same connection, inside the test's transaction, with
``SET ROLE``. For that the runtime role is made a member of the owner and of a superuser role
of the run's own, with NOINHERIT: membership lends it none of their privileges, only the
right to switch when asked. Production's runtime role is a member of nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

import pytest
from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg import pq, sql

from core import db_roles

POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
#: The role DATABASE_URL names (a superuser): it makes the test database and drops it.
ADMIN = settings.DATABASES["default"].get("USER") or "postgres"
_LONGEST = 63 - len("_owner")  # PostgreSQL's names are at most 63 bytes


@dataclass(frozen=True)
class Roles:
    owner: str
    runtime: str
    superuser: str


def roles_for(database: str) -> Roles:
    """The run's roles, named after its test database (a long name is cut and keeps a hash of
    the whole, so that two long names still differ)."""
    base = database
    if len(base) > _LONGEST:
        base = f"{database[: _LONGEST - 9]}_{hashlib.sha256(database.encode()).hexdigest()[:8]}"
    return Roles(owner=f"{base}_owner", runtime=f"{base}_app", superuser=f"{base}_super")


def current() -> Roles:
    return roles_for(settings.DATABASES["default"]["NAME"])


def _run(statement: sql.Composable | str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement)


def _quiet(_: str) -> None:
    """db_roles says what it did; the test run does not need to hear it."""


def install() -> Roles:
    """Connected as the superuser to the migrated test database: the owner and the runtime
    role made and granted as ``db_roles`` does, and the test-only memberships."""
    roles = current()
    db_roles.ensure_role(connection, roles.owner, None, _quiet)
    db_roles.ensure_role(connection, roles.runtime, None, _quiet)
    db_roles.prepare_database(connection, roles.owner, roles.runtime, _quiet)
    db_roles.take_ownership(connection, roles.owner, _quiet)
    db_roles.grant_runtime(connection, roles.owner, roles.runtime, _quiet)
    superuser = sql.Identifier(roles.superuser)
    if not db_roles.role_exists(connection, roles.superuser):
        _run(sql.SQL("CREATE ROLE {} NOLOGIN SUPERUSER").format(superuser))
    runtime = sql.Identifier(roles.runtime)
    _run(sql.SQL("ALTER ROLE {} NOINHERIT").format(runtime))
    _run(sql.SQL("GRANT {}, {} TO {}").format(sql.Identifier(roles.owner), superuser, runtime))
    # A test database need not outlive a crash of the server: its commits do not wait for the
    # disk (the sessions opened from now on; a committed row is still seen by every session).
    database = sql.Identifier(connection.settings_dict["NAME"])
    _run(sql.SQL("ALTER DATABASE {} SET synchronous_commit = off").format(database))
    return roles


def grant_again() -> None:
    """After migrating by hand (the executor, not ``manage.py migrate``), the runtime role's
    privileges on the tables the migrations made again, as ``migrate`` grants them."""
    if POSTGRES:
        roles = current()
        db_roles.grant_runtime(connection, roles.owner, roles.runtime, _quiet)


def remove(roles: Roles) -> None:
    """Connected as the superuser again: the roles dropped, what they owned given back to it
    (the test database goes next, or stays for ``--reuse-db``)."""
    names = sql.SQL(", ").join(
        sql.Identifier(name) for name in (roles.runtime, roles.owner, roles.superuser)
    )
    _run(sql.SQL("REASSIGN OWNED BY {} TO {}").format(names, sql.Identifier(ADMIN)))
    _run(sql.SQL("DROP OWNED BY {}").format(names))
    _run(sql.SQL("DROP ROLE {}").format(names))


def connect_as(user: str) -> None:
    """Every connection from now on logs in as ``user`` (threads open theirs from the same
    settings; servers and workers the tests start read them too)."""
    for alias in connections:
        connections[alias].close()
        connections[alias].settings_dict["USER"] = user


@contextmanager
def _acting_as(role: str, on: BaseDatabaseWrapper) -> Iterator[None]:
    if on.vendor != "postgresql":
        yield
        return
    with on.cursor() as cursor:
        cursor.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
    try:
        yield
    finally:
        # A statement of the block failed inside a transaction: rolling it back (or its
        # savepoint) undoes the SET ROLE, and nothing else runs until then.
        if on.connection.info.transaction_status != pq.TransactionStatus.INERROR:
            with on.cursor() as cursor:
                cursor.execute("RESET ROLE")


def as_owner(on: BaseDatabaseWrapper = connection) -> AbstractContextManager[None]:
    """The block runs as the tables' owner (PostgreSQL; elsewhere as it is)."""
    return _acting_as(current().owner, on)


def as_superuser(on: BaseDatabaseWrapper = connection) -> AbstractContextManager[None]:
    """The block runs as a superuser (PostgreSQL; elsewhere as it is): the attacker who may
    switch the append-only triggers off."""
    return _acting_as(current().superuser, on)


def assert_append_only(rewrite: Callable[[], object]) -> None:
    """``rewrite`` (an UPDATE, DELETE or TRUNCATE of append-only rows) fails as the
    application's own role — on PostgreSQL the runtime role lacks the privilege — and, run by
    the tables' owner, who holds every privilege, the append-only trigger refuses it."""
    first = "permission denied" if connection.vendor == "postgresql" else "append-only"
    with pytest.raises(DatabaseError, match=first), transaction.atomic():
        rewrite()
    if connection.vendor == "postgresql":
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), as_owner():
            rewrite()
