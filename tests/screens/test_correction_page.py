"""The correction page: it starts from the cards and decisions in force, shows the
corrected values at its head afterwards, shows the reversal with every figure negated, and
speaks of seats."""

from __future__ import annotations

import pytest
from django.urls import reverse

from wagers.models import Settlement

from .support import DEALER_CARDS, STRONG, WEAK, form_values, parse

pytestmark = pytest.mark.django_db

MISREAD = "8s 7s 4s 2c 7h 8c 3c"  # 8-7-4 of spades: the dealer does not qualify (R4)


def _form(client, hand):
    page = parse(client.get(reverse("floor-hand", args=[hand.pk])).content)
    return page.find("form", id="correction")


def test_the_form_starts_from_the_cards_and_decisions_in_force(floor, settled):
    values = form_values(_form(floor, settled))
    assert sorted(values["dealer_cards"].split()) == sorted(DEALER_CARDS.split())
    assert sorted(values["cards_1"].split()) == sorted(STRONG.split())
    assert sorted(values["cards_5"].split()) == sorted(WEAK.split())
    assert values["decision_1"] == "raise" and values["raise_1"] == "10.00"
    assert values["decision_5"] == "fold"


def test_the_fields_are_named_by_seat(floor, settled):
    labels = [label.text for label in _form(floor, settled).find_all("label")]
    assert "Seat 1's cards:" in labels and "Seat 5's decision:" in labels
    assert not any("spots[" in label for label in labels)


def test_after_a_correction_the_head_shows_the_corrected_values(floor, settled):
    data = form_values(_form(floor, settled)) | {"reason": "Misread", "dealer_cards": MISREAD}

    response = floor.post(reverse("floor-hand", args=[settled.pk]), data)

    assert response.status_code == 302
    page = parse(floor.get(reverse("floor-hand", args=[settled.pk])).content)
    assert page.by_id("corrected").text.startswith("Corrected: entry 3")
    assert page.by_id("dealer-cards").find("span", class_="cards").text == MISREAD
    assert form_values(page.find("form", id="correction"))["dealer_cards"] == MISREAD


def test_the_reversal_shows_every_figure_negated(floor, settled):
    data = form_values(_form(floor, settled)) | {"reason": "Misread", "dealer_cards": MISREAD}
    floor.post(reverse("floor-hand", args=[settled.pk]), data)
    page = parse(floor.get(reverse("floor-hand", args=[settled.pk])).content)

    def figures(entry: int) -> list[list[str]]:
        table = page.by_id(f"entry-{entry}").find("table")
        return [[td.text for td in tr.find_all("td")][3:] for tr in table.find_all("tr")[1:]]

    original, reversal = figures(1), figures(2)
    assert original == [["1.00", "+29.00"], ["1.00", "-11.00"]]
    assert reversal == [["-1.00", "-29.00"], ["-1.00", "+11.00"]]
    assert "House fee -3.00 · dealer net +21.00" in page.by_id("entry-2").text


def test_a_decision_is_corrected_from_the_form(floor, settled):
    """Seat 5 folded by mistake: it raised $10 (a two-card flush may raise 1×, R8)."""
    data = form_values(_form(floor, settled)) | {
        "reason": "Seat 5 raised",
        "decision_5": "raise",
        "raise_5": "10",
    }
    response = floor.post(reverse("floor-hand", args=[settled.pk]), data)
    assert response.status_code == 302
    correction = settled.settlements.get(kind=Settlement.Kind.CORRECTION)
    spot = next(s for s in correction.round["spots"] if s["seat"] == 5)
    assert spot["decision"] == "raise"


def test_a_refusal_speaks_of_seats_not_paths(floor, settled):
    data = form_values(_form(floor, settled)) | {"reason": "r", "cards_5": "Qh 8h 3d 4c Td 6s"}
    response = floor.post(reverse("floor-hand", args=[settled.pk]), data)
    assert response.status_code == 422
    assert "spots[" not in response.text


def test_a_correction_made_meanwhile_makes_the_pages_form_stale(floor, settled):
    """Two supervisors have the page open; the first corrects: the second's form was filled
    from entry 1, and is refused at the top of the form instead of overwriting entry 3."""
    stale = form_values(_form(floor, settled)) | {"reason": "Misread", "dealer_cards": MISREAD}
    assert int(stale["corrects"]) == settled.settlements.get().pk
    assert floor.post(reverse("floor-hand", args=[settled.pk]), stale).status_code == 302

    response = floor.post(reverse("floor-hand", args=[settled.pk]), stale | {"reason": "Again"})

    assert response.status_code == 422
    errors = parse(response.content).find("form", id="correction").text
    assert "Entry 1 of hand" in errors and "is no longer the settlement in force" in errors
    assert settled.settlements.count() == 3
