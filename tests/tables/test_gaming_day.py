"""A cardroom's gaming day: its local date, starting at its day-start hour (06:00 by default)."""

from datetime import UTC, date, datetime, time

import pytest

from tables import selectors
from tables.services.cardrooms import cardroom_create
from tests.conftest import an_administrator

pytestmark = pytest.mark.django_db


@pytest.fixture
def vegas(supervisor):
    return cardroom_create(name="Vegas", time_zone="America/Los_Angeles", by=an_administrator())


@pytest.mark.parametrize(
    ("utc", "day"),
    [
        (datetime(2024, 3, 1, 14, 0, tzinfo=UTC), date(2024, 3, 1)),  # 06:00 local: a new day
        (datetime(2024, 3, 1, 13, 59, tzinfo=UTC), date(2024, 2, 29)),  # 05:59 local
        (datetime(2024, 3, 2, 10, 0, tzinfo=UTC), date(2024, 3, 1)),  # 02:00 local, next date
        (datetime(2024, 3, 2, 7, 59, tzinfo=UTC), date(2024, 3, 1)),  # 23:59 local
    ],
)
def test_a_moment_belongs_to_the_gaming_day_that_started_before_it_in_local_time(vegas, utc, day):
    assert selectors.gaming_day(vegas, utc) == day


def test_the_day_start_hour_is_the_cardrooms(supervisor):
    late = cardroom_create(
        name="Late room", time_zone="UTC", gaming_day_starts_at=time(10, 0), by=an_administrator()
    )
    assert selectors.gaming_day(late, datetime(2024, 3, 1, 9, 59, tzinfo=UTC)) == date(2024, 2, 29)
    assert selectors.gaming_day(late, datetime(2024, 3, 1, 10, 0, tzinfo=UTC)) == date(2024, 3, 1)


def test_a_gaming_day_runs_from_its_start_to_the_next_days_start(vegas):
    start, end = selectors.gaming_day_bounds(vegas, date(2024, 3, 1))
    assert start == datetime(2024, 3, 1, 14, 0, tzinfo=UTC)
    assert end == datetime(2024, 3, 2, 14, 0, tzinfo=UTC)
    assert selectors.gaming_day(vegas, start) == date(2024, 3, 1)
    assert selectors.gaming_day(vegas, end) == date(2024, 3, 2)


def test_the_gaming_day_when_the_clocks_go_forward_is_23_hours_long(vegas):
    # The clocks go forward at 02:00 on 10 March, inside the gaming day of 9 March.
    start, end = selectors.gaming_day_bounds(vegas, date(2024, 3, 9))
    # (In UTC: Python subtracts two times of one zone as wall-clock times.)
    assert (end.astimezone(UTC) - start.astimezone(UTC)).total_seconds() == 23 * 3600
