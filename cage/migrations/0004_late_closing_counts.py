"""A count may be a late closing count (``late``); and every house-banked table's rack by the
books (``tables.Rack``) starts from the books as they stand: its last count, every house bank
entry since, the pieces of every slip delivered since. A table whose books are below zero (a
sale from an empty rack, before the guard) starts none: its next count starts them. An open
session counted already is marked counted until the end of the shift of its last count.

On SQLite the counts' table is rebuilt: its append-only triggers are installed again."""

from datetime import date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db import migrations, models

from core.db import AppendOnly


def _shift_end(cardroom, shifts, day: date, name: str) -> datetime | None:
    """The end of shift ``name`` of gaming ``day`` (as tables.selectors.shift_spans reckons
    it, frozen here): the next shift's start, or the next gaming day's."""
    day_start: time = cardroom.gaming_day_starts_at
    zone = ZoneInfo(cardroom.time_zone)

    def offset(at: time) -> int:
        seconds = (at.hour - day_start.hour) * 3600 + (at.minute - day_start.minute) * 60
        return (seconds + at.second - day_start.second) % 86400

    def moment(at: time) -> datetime:
        on = day if at >= day_start else day + timedelta(days=1)
        return datetime.combine(on, at, tzinfo=zone)

    ordered = sorted(shifts or [(name, day_start)], key=lambda s: offset(s[1]))
    ends = [moment(at) for _, at in ordered[1:]]
    ends.append(datetime.combine(day + timedelta(days=1), day_start, tzinfo=zone))
    for (shift, _), end in zip(ordered, ends, strict=True):
        if shift == name:
            return end
    return None


def racks_from_the_books(apps, schema_editor):
    db = schema_editor.connection.alias  # migrate's own connection (the owner)
    Table = apps.get_model("tables", "Table")
    Rack = apps.get_model("tables", "Rack")
    TableSession = apps.get_model("tables", "TableSession")
    HouseBankEntry = apps.get_model("tables", "HouseBankEntry")
    Shift = apps.get_model("tables", "Shift")
    InventoryCount = apps.get_model("cage", "InventoryCount")
    Slip = apps.get_model("cage", "Slip")
    for table in Table.objects.using(db).filter(banking="house").select_related("cardroom"):
        last = (
            InventoryCount.objects.using(db)
            .filter(table=table)
            .order_by("-session_id", "-id")
            .first()
        )
        if last is None:
            continue
        since = HouseBankEntry.objects.using(db).filter(table=table, id__gt=last.bank_through)
        value = last.total + sum(since.values_list("amount", flat=True), Decimal(0))
        pieces = dict(last.chips)
        delivered = Slip.objects.using(db).filter(
            table=table, delivery__bank_entry_id__gt=last.bank_through
        )
        for slip in delivered:
            sign = 1 if slip.kind == "fill" else -1
            for denomination, number in slip.chips.items():
                pieces[denomination] = pieces.get(denomination, 0) + sign * number
        if value >= 0:
            pieces = {d: max(n, 0) for d, n in pieces.items()}
            Rack.objects.using(db).create(table=table, cents=int(value * 100), pieces=pieces)
        session = TableSession.objects.using(db).filter(table=table, closed_at=None).first()
        if session is not None and last.session_id == session.pk:
            shifts = [
                (s.name, s.starts_at)
                for s in Shift.objects.using(db).filter(cardroom_id=table.cardroom_id)
            ]
            session.rack_count_kind = last.kind
            session.rack_counted_until = _shift_end(
                table.cardroom, shifts, last.gaming_day, last.shift
            )
            session.save(using=db, update_fields=["rack_count_kind", "rack_counted_until"])


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0003_cardroom_in_patrons"),
        ("tables", "0020_rack_books_and_session_count_marks"),
    ]

    operations = [
        migrations.AddField(
            model_name="inventorycount",
            name="late",
            field=models.BooleanField(default=False),
        ),
        AppendOnly("inventorycount", after_rebuild=True),
        migrations.RunPython(racks_from_the_books, migrations.RunPython.noop),
    ]
