"""A player new to the cardroom registers and sits down in one transaction: a refused seating
leaves no player behind (and nothing in the audit log)."""

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError
from patrons.models import Player
from tables.models import Seating
from tables.services.seating import player_seat_new

pytestmark = pytest.mark.django_db


def test_a_new_player_is_registered_seated_and_bought_in_at_once(dp_table, session, dealer):
    seating = player_seat_new(table=dp_table, seat=2, name="  Frankie ", buy_in="150", by=dealer)
    assert seating.player.name == "Frankie"
    assert seating.stack == 150
    actions = list(AuditEvent.objects.order_by("-seq").values_list("action", flat=True)[:3])
    assert actions == ["stack.buy_in", "seat.taken", "player.created"]


@pytest.mark.parametrize(
    ("number", "buy_in", "error", "field"),
    [
        (1, "100", Conflict, "seat"),  # taken
        (9, "100", DomainError, "seat"),  # no such seat
        (2, "10.50", DomainError, "buy_in"),  # not whole chips (R5)
    ],
)
def test_a_refused_seating_leaves_no_player_behind(
    dp_table, seated, dealer, number, buy_in, error, field
):
    players, seatings = Player.objects.count(), Seating.objects.count()
    events = AuditEvent.objects.count()
    with pytest.raises(error) as refused:
        player_seat_new(table=dp_table, seat=number, name="Frankie", buy_in=buy_in, by=dealer)
    assert refused.value.field == field
    assert Player.objects.count() == players
    assert not Player.objects.filter(name="Frankie").exists()
    assert Seating.objects.count() == seatings
    assert AuditEvent.objects.count() == events


def test_a_closed_table_seats_no_new_player(dp_table, supervisor):
    with pytest.raises(Conflict, match="is closed"):
        player_seat_new(table=dp_table, seat=2, name="Frankie", by=supervisor)
    assert not Player.objects.filter(name="Frankie").exists()
