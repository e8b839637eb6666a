"""Accounts made before signatures: each gets a profile, set up by its person as of the day it
joined; an account a floor supervisor made with a first password of their choosing (a
``staff.created`` event) must change it at its next sign-in; and the makers the audit log
names (``staff.created``, ``staff.role_set``) are its lineage, the line no approval crosses."""

import json

from django.db import migrations


def forward(apps, schema_editor):
    db = schema_editor.connection.alias  # migrate's own connection (the owner)
    User = apps.get_model("auth", "User")
    StaffProfile = apps.get_model("tables", "StaffProfile")
    StaffLineage = apps.get_model("tables", "StaffLineage")
    AuditEvent = apps.get_model("audit", "AuditEvent")
    known = set(StaffProfile.objects.using(db).values_list("user_id", flat=True))
    StaffProfile.objects.using(db).bulk_create(
        StaffProfile(user_id=user.pk, set_up_at=user.date_joined)
        for user in User.objects.using(db).exclude(pk__in=known).only("pk", "date_joined")
    )
    events = (
        AuditEvent.objects.using(db)
        .filter(action__in=["staff.created", "staff.role_set"], object_type="auth.user")
        .exclude(actor=None)
    )
    made_with_password = set()
    for event in events.order_by("seq"):
        account = int(event.object_id)
        if not User.objects.using(db).filter(pk=account).exists():
            continue
        payload = json.loads(event.payload)
        how = "made" if event.action == "staff.created" else "promoted"
        if how == "made":
            made_with_password.add(account)
        StaffLineage.objects.using(db).create(
            account_id=account,
            maker_id=event.actor_id,
            how=how,
            role=payload.get("role", ""),
            at=event.occurred_at,
        )
    StaffProfile.objects.using(db).filter(user_id__in=made_with_password).update(
        password_change_due=True
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0010_staff_signatures_two_person"),
        ("audit", "0019_actor_indexed_with_seq_only"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
