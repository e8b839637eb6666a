"""``manage.py db_roles``: the owner and runtime roles on PostgreSQL.

Run it as a superuser once (``--database`` an alias connected as one): it creates both roles
(passwords from DB_OWNER_PASSWORD and DB_RUNTIME_PASSWORD, if set), gives the schema and every
existing table to the owner, and grants the runtime role what it may do. Run as the owner
(``--database migrations``), it grants again only: ``migrate`` does that itself after
migrating. Safe to run again; it prints what it did. docs/production.md, "Database roles".
"""

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from core import db_roles


class Command(BaseCommand):
    help = "Create the owner and runtime database roles and their grants (PostgreSQL)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--owner", default="cardroom_owner", help="runs migrations, owns")
        parser.add_argument("--runtime", default="cardroom_app", help="the application's role")
        parser.add_argument("--database", default="default", help="the alias to connect with")

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        owner, runtime = options["owner"], options["runtime"]
        if connection.vendor != "postgresql":
            raise CommandError(f"Database roles are PostgreSQL's; this is {connection.vendor}.")
        if owner == runtime:
            raise CommandError("The owner and the runtime role must be two roles.")
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            me = cursor.fetchone()[0]
        if runtime == me:
            raise CommandError(f"Connected as {me}: the runtime role must not run this.")
        say = self.stdout.write
        if db_roles.current_role_is_superuser(connection):
            db_roles.ensure_role(connection, owner, os.environ.get("DB_OWNER_PASSWORD"), say)
            db_roles.ensure_role(connection, runtime, os.environ.get("DB_RUNTIME_PASSWORD"), say)
            db_roles.prepare_database(connection, owner, runtime, say)
            db_roles.take_ownership(connection, owner, say)
        elif me != owner:
            raise CommandError(
                f"Connected as {me}: run this as a superuser (creates the roles) or as the "
                f"owner {owner} (grants only)."
            )
        elif not db_roles.role_exists(connection, runtime):
            raise CommandError(f"There is no role {runtime}: run this as a superuser first.")
        db_roles.grant_runtime(connection, owner, runtime, say)
