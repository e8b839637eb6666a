"""``nothing_written`` (tests/conftest.py), the check every refusal test leans on, sees a row
added to an empty table, a row changed and a row removed, and nothing when nothing changed."""

import pytest

from patrons.models import Player


def test_it_passes_a_block_that_writes_nothing(nothing_written, cardroom):
    with nothing_written():
        list(Player.objects.all())


def test_it_sees_a_row_added_to_an_empty_table(nothing_written, make_player):
    assert not Player.objects.exists()
    with pytest.raises(AssertionError, match="patrons.Player: added"), nothing_written():
        make_player("Ann Example")


def test_it_sees_a_row_changed_and_a_row_removed(nothing_written, make_player):
    kept, gone = make_player("Ann Example"), make_player("Bob Example")
    with pytest.raises(AssertionError, match="changed") as failed, nothing_written():
        Player.objects.filter(pk=kept.pk).update(name="Ann Changed")
        Player.objects.filter(pk=gone.pk).delete()
    assert "Ann Changed" in str(failed.value) and "Bob Example" in str(failed.value)
