"""Setting changes, paytable changes and the self-approval switch become kinds of the one
two-person change (design.md 7): every row of ``SettingChange``, ``PaytableChange`` +
``PaytableDecision`` and ``SelfApprovalChange`` + ``SelfApprovalDecision`` is copied into
``TwoPersonChange`` + ``TwoPersonDecision``, then the old tables go (their append-only
triggers first).

The copies take new ids, above every id the old tables and the two-person table used, so
that an audit event or a signature of an old row (its model's label and its old id) never
names a copy or a later change; each copy keeps the old row's label and id in
``values["migrated_from"]``. Paytable decisions are copied in the order they were made: the
catalogue is what the approved changes add up to, in that order.
"""

from django.core.management.color import no_style
from django.db import migrations, models

from core.db import AppendOnlyEnd

FIGURE_SETTINGS = ("bonus_mode", "flush_paytable", "straight_flush_paytable")


def _figures(version):
    return {name: getattr(version, name) for name in FIGURE_SETTINGS}


class _Copier:
    """Copies old rows with new ids from ``base`` up."""

    def __init__(self, apps):
        self.change = apps.get_model("tables", "TwoPersonChange")
        self.decision = apps.get_model("tables", "TwoPersonDecision")
        olds = [apps.get_model("tables", name) for name in
                ("SettingChange", "PaytableChange", "SelfApprovalChange")]  # fmt: skip
        self.next_id = max(
            [model.objects.aggregate(top=models.Max("id"))["top"] or 0 for model in olds]
            + [self.change.objects.aggregate(top=models.Max("id"))["top"] or 0]
        )

    def change_of(self, row, label, kind, values, **scope):
        self.next_id += 1
        values = values | {"migrated_from": {"model": label, "id": row.pk}}
        return self.change.objects.create(
            id=self.next_id, kind=kind, values=values, reason=row.reason,
            proposed_by_id=row.proposed_by_id, proposed_at=row.proposed_at, **scope,
        )  # fmt: skip

    def decide(self, change, outcome, by, at, **rest):
        self.decision.objects.create(
            change=change, outcome=outcome, decided_by_id=by, decided_at=at, **rest
        )


def _copy_setting_changes(apps, copier):
    rows = apps.get_model("tables", "SettingChange").objects.select_related(
        "table", "based_on", "result"
    )
    for row in rows.order_by("id"):
        values = {
            "table": row.table_id,
            "based_on": row.based_on_id,
            "based_on_version": row.based_on.version,
            "base": _figures(row.based_on),
            "new": row.new_values,
            "old": row.old_values,
        }
        change = copier.change_of(
            row, "tables.settingchange", "table_settings", values,
            cardroom_id=row.table.cardroom_id, table_id=row.table_id,
        )  # fmt: skip
        if row.status == "pending":
            continue
        made = {}
        if row.status == "approved" and row.result is not None:
            made = {"version": row.result.version, "settings": row.result_id,
                    "made": _figures(row.result), "old": row.old_values}  # fmt: skip
        copier.decide(
            change, row.status, row.decided_by_id, row.decided_at or row.proposed_at,
            self_approved=row.self_approved, values=made,
        )  # fmt: skip


def _copy_paytable_changes(apps, copier):
    copies = {}
    for row in apps.get_model("tables", "PaytableChange").objects.order_by("id"):
        values = {"paytable": row.kind, "lines": row.lines, "action": row.action,
                  "origin": row.origin}  # fmt: skip
        copies[row.pk] = copier.change_of(
            row, "tables.paytablechange", "paytable", values, cardroom_id=row.cardroom_id
        )
    for decision in apps.get_model("tables", "PaytableDecision").objects.order_by("id"):
        copier.decide(
            copies[decision.change_id], decision.outcome, decision.decided_by_id,
            decision.decided_at, self_approved=decision.self_approved, reason=decision.reason,
        )  # fmt: skip


def _copy_self_approval_changes(apps, copier):
    decisions = apps.get_model("tables", "SelfApprovalDecision").objects
    for row in apps.get_model("tables", "SelfApprovalChange").objects.order_by("id"):
        change = copier.change_of(
            row, "tables.selfapprovalchange", "self_approval",
            {"cardroom": row.cardroom_id, "allowed": row.allowed}, cardroom_id=row.cardroom_id,
        )  # fmt: skip
        decision = decisions.filter(change_id=row.pk).first()
        if decision is not None:
            outcome = "approved" if decision.approved else "rejected"
            copier.decide(
                change, outcome, decision.decided_by_id, decision.decided_at,
                reason=decision.reason,
            )  # fmt: skip


def copy_changes(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql":
        # Foreign keys checked as each row goes in, not at the end: no trigger events left
        # pending when the old tables are dropped.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE", params=None)
    copier = _Copier(apps)
    _copy_setting_changes(apps, copier)
    _copy_paytable_changes(apps, copier)
    _copy_self_approval_changes(apps, copier)
    # The ids were given: the sequence starts after them (PostgreSQL; SQLite keeps its own).
    for statement in connection.ops.sequence_reset_sql(no_style(), [copier.change]):
        schema_editor.execute(statement, params=None)


def refuse_with_changes(apps, schema_editor):
    """Undone only where nothing was copied: the old tables would come back empty."""
    changes = apps.get_model("tables", "TwoPersonChange").objects.using(
        schema_editor.connection.alias
    )
    if changes.filter(kind__in=("table_settings", "paytable", "self_approval")).exists():
        raise migrations.exceptions.IrreversibleError(
            "Setting, paytable and self-approval changes live in the two-person change now: "
            "undoing this would lose them."
        )


class Migration(migrations.Migration):
    dependencies = [("tables", "0017_two_person_change_scope")]

    operations = [
        migrations.RunPython(copy_changes, refuse_with_changes, elidable=False),
        AppendOnlyEnd("paytabledecision"),
        AppendOnlyEnd("paytablechange"),
        AppendOnlyEnd("selfapprovaldecision"),
        AppendOnlyEnd("selfapprovalchange"),
        migrations.DeleteModel(name="PaytableDecision"),
        migrations.DeleteModel(name="PaytableChange"),
        migrations.DeleteModel(name="SelfApprovalDecision"),
        migrations.DeleteModel(name="SelfApprovalChange"),
        migrations.DeleteModel(name="SettingChange"),
        migrations.CreateModel(
            name="PaytableChange",
            fields=[],
            options={
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("tables.twopersonchange",),
        ),
        migrations.CreateModel(
            name="SelfApprovalChange",
            fields=[],
            options={
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("tables.twopersonchange",),
        ),
        migrations.CreateModel(
            name="SettingChange",
            fields=[],
            options={
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("tables.twopersonchange",),
        ),
    ]
