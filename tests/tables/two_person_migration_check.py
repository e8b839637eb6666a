"""Run tables' migrations 0017 and 0018 on a database of its own (``DATABASE_URL``, empty):
migrate to 0013, make rows of the five old change models as they were, migrate on, and check
the copies in the one two-person change.

``python -m tests.tables.two_person_migration_check`` (what ``test_two_person_migration``
runs, on a SQLite file; point DATABASE_URL at an empty PostgreSQL database to run it there)."""

from __future__ import annotations

import os
from datetime import timedelta

import django

BEFORE = ("tables", "0013_cardroom_largest_cage_amount")
FLUSH = {"4": 2, "5": 10, "6": 20, "7": 100}


def _old_rows(apps) -> dict:  # type: ignore[no-untyped-def]
    """A cardroom, a table with two settings versions, and one of each kind of old change."""
    from django.utils import timezone

    from tables.rules import defaults_for

    User = apps.get_model("auth", "User")  # noqa: N806
    get = apps.get_model
    now = timezone.now()
    one = User.objects.create(username="one")
    two = User.objects.create(username="two")
    staff = get("tables", "TwoPersonChange").objects.create(
        kind="staff_role", values={"role": "Cashier"}, reason="r", proposed_by=one, proposed_at=now
    )
    room = get("tables", "Cardroom").objects.create(name="Old room")
    table = get("tables", "Table").objects.create(cardroom=room, name="T", banking="house")
    values = defaults_for("house")
    v1 = get("tables", "TableSettings").objects.create(table=table, version=1, **values)
    v2 = get("tables", "TableSettings").objects.create(
        table=table, version=2, **(values | {"ante_min": "10.00"})
    )
    setting = get("tables", "SettingChange").objects
    common = {"table": table, "proposed_by": one, "proposed_at": now, "based_on": v1}
    approved = setting.create(
        **common, reason="Busy", new_values={"ante_min": "10.00"},
        old_values={"ante_min": "5.00"}, status="approved", decided_by=two, decided_at=now,
        result=v2,
    )  # fmt: skip
    pending = setting.create(
        **common, reason="Later", new_values={"ante_max": "50.00"},
        old_values={"ante_max": "100.00"},
    )  # fmt: skip
    paytable = get("tables", "PaytableChange").objects
    decision = get("tables", "PaytableDecision").objects
    later = now + timedelta(seconds=1)
    flush = {"cardroom": room, "kind": "flush_paytable", "lines": FLUSH}
    added = paytable.create(**flush, action="add", proposed_by=one, proposed_at=now, reason="Promo")
    retired = paytable.create(
        **flush, action="retire", proposed_by=two, proposed_at=later, reason="Over"
    )
    in_use = paytable.create(
        cardroom=room, kind="straight_flush_paytable", lines={"3": 8}, action="add",
        origin="in_use", proposed_at=now, reason="In use",
    )  # fmt: skip
    # Decided in this order: the retirement is the last word on FLUSH.
    decision.create(change=in_use, outcome="approved", decided_at=now)
    decision.create(change=added, outcome="approved", decided_by=two, decided_at=now)
    decision.create(change=retired, outcome="approved", decided_by=one, decided_at=later,
                    self_approved=True)  # fmt: skip
    switch = get("tables", "SelfApprovalChange").objects.create(
        cardroom=room, allowed=True, reason="Nights", proposed_by=one, proposed_at=now
    )
    get("tables", "SelfApprovalDecision").objects.create(
        change=switch, approved=True, reason="Agreed", decided_by=two, decided_at=now
    )
    return {"staff": staff.pk, "approved": approved.pk, "pending": pending.pk,
            "top": max(staff.pk, approved.pk, pending.pk, in_use.pk, switch.pk)}  # fmt: skip


def _check(old: dict) -> None:
    from django.db import DatabaseError, connection, transaction

    from patrons.models import Cardroom
    from tables import catalogue
    from tables.staff_models import (
        PaytableChange,
        SelfApprovalChange,
        SettingChange,
        TwoPersonChange,
    )

    copies = TwoPersonChange.objects.exclude(pk=old["staff"])
    assert all(pk > old["top"] for pk in copies.values_list("pk", flat=True)), "ids reused"
    by_old = {c.values["migrated_from"]["id"]: c for c in SettingChange.objects.all()}
    approved, pending = by_old[old["approved"]], by_old[old["pending"]]
    assert (approved.status, approved.version, approved.new_values) == (
        "approved", 2, {"ante_min": "10.00"},
    )  # fmt: skip
    assert approved.decided_by.username == "two" and approved.table.name == "T"
    assert (pending.status, pending.based_on_version) == ("pending", 1)
    room = Cardroom.objects.get(name="Old room")
    held = [(e.kind, e.lines) for e in catalogue.paytable_catalogue(room)]
    assert held == [("straight_flush_paytable", {"3": 8})], held
    retired = PaytableChange.objects.get(values__action="retire")
    assert retired.self_approved and retired.origin == "proposed"
    assert PaytableChange.objects.get(values__origin="in_use").proposed_by is None
    switch = SelfApprovalChange.objects.get()
    assert (switch.allowed, switch.status, switch.decision.reason) == (True, "approved", "Agreed")
    last = max(copies.values_list("pk", flat=True))
    new = TwoPersonChange.objects.create(kind="staff_role", values={}, reason="r",
                                         proposed_at=switch.proposed_at)  # fmt: skip
    assert new.pk > last, "the sequence was not moved on"
    tables = connection.introspection.table_names()
    assert not {"tables_settingchange", "tables_paytabledecision"} & set(tables)
    for rows in (TwoPersonChange.objects.filter(pk=new.pk), approved.decision.__class__.objects):
        try:
            with transaction.atomic():
                rows.update(reason="rewritten")
        except DatabaseError:
            continue
        raise AssertionError("a two-person row was rewritten: its triggers are gone")


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.local")
    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    call_command("migrate", *BEFORE, verbosity=0)
    old = _old_rows(MigrationLoader(connection).project_state(BEFORE).apps)
    call_command("migrate", verbosity=0)  # every app, as a deployment does
    _check(old)
    print("migrations 0014 and 0015: copies checked")


if __name__ == "__main__":
    main()
