"""What the table views share: who writes, the bound on settings, who sees a table's stacks."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.request import Request

from cardroom.api.inputs import StrictSerializer
from core.errors import PermissionDenied
from core.roles import FLOOR_SUPERVISOR
from tables import selectors

SUPERVISOR = (FLOOR_SUPERVISOR,)


#: The most keys a table's settings (or a change of them) may name: a handful exist.
SETTINGS_KEYS = 50


class ReasonIn(StrictSerializer):
    reason = serializers.CharField(max_length=2000, required=False, default="")


def require_sees_stacks(request: Request, table_id: int) -> None:
    """A table's stacks, seatings and rotation: its staff, floor supervisors and compliance
    (the rule is ``tables.selectors.Viewer``)."""
    if not selectors.viewer(request.user).sees_stacks(table_id):
        raise PermissionDenied(
            "Only the table's dealer on duty, floor supervisors and compliance see its "
            "stacks, seatings and rotation."
        )
