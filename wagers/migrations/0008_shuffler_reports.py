"""What a table's shuffler reported, each message once."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("wagers", "0007_incident_hands"), ("tables", "0023_shuffler_devices")]

    operations: list[migrations.operations.base.Operation] = []
