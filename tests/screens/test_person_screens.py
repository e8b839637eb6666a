"""Compliance's possible matches on the Law page: listed by name, "Link" and "Not the same
person" asking first with both records named; the player page lists the person's records."""

from __future__ import annotations

import pytest
from django.urls import reverse

from patrons.models import PersonMatch, Player
from tables.services.seating import player_create

from .support import last_seq, parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(world, supervisor):
    first = player_create(cardroom=world.cardroom, name="Sam Twice", by=supervisor)
    player_create(cardroom=world.cardroom, name="sam twice", by=supervisor)
    found = PersonMatch.objects.get()
    assert found.other == first
    return found


def test_the_law_page_lists_the_possible_matches_by_name(compliance, match):
    page = parse(compliance.get(reverse("law-home")).content)
    listed = page.by_id("person-matches").text
    assert "Sam Twice and sam twice" in listed or "sam twice and Sam Twice" in listed
    assert "same name, no date of birth" in listed
    assert "Not the same person" in listed


def test_link_asks_first_naming_both_records_then_links(compliance, match):
    url = reverse("law-match-resolve", kwargs={"pk": match.pk})
    before = last_seq()
    asked = compliance.post(url, {"decision": "linked", "reason": "Same face"})
    assert asked.status_code == 200
    sentence = parse(asked.content).text
    assert f"player #{match.player_id}" in sentence and f"player #{match.other_id}" in sentence
    assert "as one person" in sentence
    assert last_seq() == before  # asked, nothing done
    done = compliance.post(url, {"decision": "linked", "reason": "Same face", "confirmed": "1"})
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.status == "linked"
    assert Player.objects.get(pk=match.player_id).person_id == match.other.person_id
    page = parse(compliance.get(reverse("law-player", kwargs={"pk": match.other_id})).content)
    assert f"player #{match.player_id}" in page.by_id("linked-records").text


def test_not_the_same_person_without_a_reason_is_refused_where_the_user_looks(compliance, match):
    url = reverse("law-match-resolve", kwargs={"pk": match.pk})
    before = last_seq()
    refused = compliance.post(url, {"decision": "distinct", "reason": "", "confirmed": "1"})
    assert refused.status_code == 422
    assert "reason" in parse(refused.content).by_id("refusal").text.lower()
    assert PersonMatch.objects.get().status == "open"
    assert last_seq() == before
