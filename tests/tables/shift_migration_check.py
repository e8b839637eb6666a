"""Run tables' shift-definition migration on a database of its own (``DATABASE_URL``, empty):
migrate to the migration before it, make a cardroom's shifts as they were (rows of the old
``Shift`` model, out of order) and a cardroom with none, migrate on, and check that the
shifts became one definition in force from the earliest day, in the gaming day's order.

``python -m tests.tables.shift_migration_check`` (what ``test_shift_migration`` runs)."""

from __future__ import annotations

import os
from datetime import date, time

import django

BEFORE = ("tables", "0019_incident_tables")


def _old_rows(apps) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    Cardroom = apps.get_model("patrons", "Cardroom")  # noqa: N806
    Shift = apps.get_model("tables", "Shift")  # noqa: N806
    shifted = Cardroom.objects.create(name="Shifted", gaming_day_starts_at=time(6))
    for name, start in (("grave", time(22)), ("day", time(6)), ("late", time(2))):
        Shift.objects.create(cardroom=shifted, name=name, starts_at=start)
    plain = Cardroom.objects.create(name="Plain")
    return shifted.pk, plain.pk


def _check(shifted: int, plain: int) -> None:
    from django.db import DatabaseError, transaction

    from tables.models import ShiftDefinition

    [definition] = ShiftDefinition.objects.filter(cardroom_id=shifted)
    assert definition.effective_from == date.min, definition.effective_from
    assert definition.shifts == [["day", "06:00"], ["grave", "22:00"], ["late", "02:00"]]
    assert definition.defined_by is None
    assert not ShiftDefinition.objects.filter(cardroom_id=plain).exists()
    try:
        with transaction.atomic():
            ShiftDefinition.objects.filter(pk=definition.pk).update(shifts=[])
    except DatabaseError:
        return
    raise AssertionError("a shift definition was rewritten: its triggers are missing")


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.local")
    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    call_command("migrate", *BEFORE, verbosity=0)
    shifted, plain = _old_rows(MigrationLoader(connection).project_state(BEFORE).apps)
    call_command("migrate", verbosity=0)  # every app, as a deployment does
    _check(shifted, plain)
    print("shift definitions: carried over and checked")


if __name__ == "__main__":
    main()
