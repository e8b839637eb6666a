"""The benches' people work in every cardroom there is (made outside the staff services,
which place a new account in its maker's cardrooms): one room's floor, as one deployment."""

from __future__ import annotations


def everyone_works_everywhere() -> None:
    from django.contrib.auth.models import User

    from patrons.models import Cardroom
    from tables.models import CardroomMembership

    rooms = list(Cardroom._base_manager.values_list("pk", flat=True))
    CardroomMembership._base_manager.bulk_create(
        [
            CardroomMembership(user_id=user, cardroom_id=room)
            for user in User.objects.values_list("pk", flat=True)
            for room in rooms
        ],
        ignore_conflicts=True,
    )
