"""``manage.py migrate`` as the owner.

With MIGRATION_DATABASE_URL set, settings add a ``migrations`` database alias connected as
the owner role, and ``migrate`` uses it unless told ``--database``; after migrating it grants
the runtime role (DATABASE_URL's user) its privileges on the tables there are now
(``core.db_roles.grant_runtime``). Without it, this is Django's ``migrate``.
"""

from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser
from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import connections

from core import db_roles

MIGRATIONS = "migrations"


class Command(DjangoMigrate):
    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        if MIGRATIONS in settings.DATABASES:
            parser.set_defaults(database=MIGRATIONS)

    def handle(self, *args: Any, **options: Any) -> None:
        super().handle(*args, **options)
        if options["database"] != MIGRATIONS or options.get("check_unapplied"):
            return
        connection = connections[MIGRATIONS]
        owner = connection.settings_dict["USER"]
        runtime = settings.DATABASES["default"].get("USER")
        if connection.vendor != "postgresql" or not runtime or runtime == owner:
            return
        if options["verbosity"] >= 1:
            self.stdout.write(f"Granting {runtime} its privileges (db_roles):")
        db_roles.grant_runtime(connection, owner, runtime, self.stdout.write)
