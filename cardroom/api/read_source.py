"""Where a report was read from (``core.replica``): the replica and its lag, or the primary."""

from __future__ import annotations

from rest_framework import serializers


class ReadSourceOut(serializers.Serializer):
    database = serializers.ChoiceField(
        choices=["primary", "replica"],
        help_text="replica when DATABASE_REPLICA_URL names one and it answered",
    )
    lag_seconds = serializers.DecimalField(
        max_digits=12,
        decimal_places=3,
        allow_null=True,
        coerce_to_string=True,
        help_text="how far the replica was behind the primary when the report was read; null "
        "when read from the primary",
    )
    note = serializers.CharField(
        help_text="why a report was read from the primary though a replica is configured (e.g. "
        "it is not answering); empty otherwise"
    )
