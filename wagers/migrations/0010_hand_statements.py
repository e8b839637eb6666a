"""Spare: the hand path's statements and locks."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("wagers", "0009_player_ratings")]

    operations: list[migrations.operations.base.Operation] = []
