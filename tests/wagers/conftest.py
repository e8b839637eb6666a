"""Fixtures for the persisted hands: the shared world of tests/conftest.py (a designated-player
table and a house-banked table opened with the dealer on duty, players seated with chips),
and its clock (2024-03-01 18:00 in New York)."""

import pytest

BUY_IN = "1000"  # what tests/conftest.py's ``seat`` buys in with


@pytest.fixture(params=["designated_player", "house"])
def table(request, dp_table, house_table, dp_players, house_players):
    """Each test that asks for it twice: at the DP table, then at the house-banked table, both
    with their players seated."""
    return dp_table if request.param == "designated_player" else house_table
