"""Tables' periodic work: seat calls whose minutes ran out pass to the next player."""

from __future__ import annotations

from celery import shared_task

from patrons.models import Cardroom

from .services.seat_calls import waitlist_calls_expire


@shared_task(name="tables.pass_expired_seat_calls", ignore_result=True)
def pass_expired_seat_calls_task() -> dict:
    """Periodic (beat): in every cardroom, each call whose minutes ran out passes to the next
    player waiting on its list, for the same seat (audited as by no one: the schedule's)."""
    passed = sum(
        waitlist_calls_expire(cardroom=cardroom) for cardroom in Cardroom.objects.order_by("pk")
    )
    return {"passed": passed}
