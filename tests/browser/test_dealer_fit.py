"""The dealer screen fits a laptop (1366×768) and a tablet both ways (1024×768, 768×1024) in
each of its states — the seats, the wagers, the card picker, the decisions and a settlement
with a dead spot (R14): nothing runs off the side (the page does not scroll sideways, no
element's edge is beyond the viewport, nothing scrolls sideways inside the page), the
settlement's Dealer column (what to pay, take or hand back) is never clipped, and the sticky
limits bar covers nothing that is scrolled into view (the page's scroll padding matches the
bar). The screenshots, one per state and size, are the ones docs/screens.md shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from core.roles import DEALER, FLOOR_SUPERVISOR
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tests.browser.support import log_in
from tests.conftest import an_administrator
from wagers import services as hands
from wagers.models import Hand

pytestmark = pytest.mark.browser

SIZES = {"1366x768": (1366, 768), "1024x768": (1024, 768), "768x1024": (768, 1024)}
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Five players, long names and big stacks among them: the widest rows a table has.
PLAYERS = (
    (1, "Avery Fitzgerald-Montgomery", "20000"),
    (2, "Blake", "500"),
    (3, "Casey Okonkwo", "12500"),
    (5, "Drew", "500"),
    (6, "Emerson Vanderbilt", "900"),
)
# The high-card draw (R16) gives the button to seat 5 (the ace), the same on every run.
DRAW_SEAT_5 = {1: "4d", 2: "9s", 3: "5s", 5: "Ah", 6: "2h"}
# 35 distinct cards (R1): the four live spots' and the dealer's, in deal order.
HANDS = (
    "Ah Th 6h 2h Jd 5c 9c",
    "Kh Jh 5s 7s 9d 6d 4d",
    "Qh 8h 3d 4c Td 6s Js",
    "As Kd Qd 7d 2d 8d 3h",
    "Ks 9s 4s 2c 7h 8c 3c",
)

# What runs off the side: the page scrolls sideways, an element's edge is beyond the viewport,
# or a box scrolls sideways inside the page (its content hidden until swiped). Hidden labels
# (.visually-hidden: 1 px, clipped on purpose) are not on the screen to run off it.
OVERFLOW_JS = """() => {
  const problems = [];
  const root = document.documentElement;
  const width = root.clientWidth;
  const words = (text) => text.trim().replace(/\\s+/g, " ");
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className ? "." + words(el.className) : "") +
    " «" + words(el.textContent).slice(0, 40) + "»";
  if (root.scrollWidth > root.clientWidth) {
    problems.push(`the page is ${root.scrollWidth}px wide in a ${root.clientWidth}px window`);
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest(".visually-hidden")) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    if (box.right > width + 1 || box.left < -1) {
      const [left, right] = [Math.round(box.left), Math.round(box.right)];
      problems.push(`${name(el)} spans ${left}–${right}px of ${width}px`);
    }
    const style = getComputedStyle(el);
    if (style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)} scrolls sideways: ${el.scrollWidth}px in ${el.clientWidth}px`);
    }
  }
  return problems;
}"""

# The settlement's Dealer column (the last cell of each row): its text fits its cell, and no
# box around it that hides or scrolls its overflow cuts it.
CLIPPED_JS = """() => {
  const problems = [];
  const cells = [...document.querySelectorAll("#settlement-spots tr > :last-child")];
  if (cells.length < 2) problems.push("no Dealer column in the settlement");
  for (const cell of cells) {
    const text = cell.textContent.trim();
    if (cell.scrollWidth > cell.clientWidth + 1) {
      problems.push(`«${text}» is ${cell.scrollWidth}px in a ${cell.clientWidth}px cell`);
    }
    const box = cell.getBoundingClientRect();
    if (box.right > document.documentElement.clientWidth + 1) {
      problems.push(`«${text}» ends at ${Math.round(box.right)}px, beyond the window`);
    }
    for (let up = cell.parentElement; up; up = up.parentElement) {
      if (getComputedStyle(up).overflowX === "visible") continue;
      const clip = up.getBoundingClientRect();
      if (box.right > clip.right + 1 || box.left < clip.left - 1) {
        problems.push(`«${text}» is cut by ${up.tagName.toLowerCase()}#${up.id}.${up.className}`);
      }
    }
  }
  return problems;
}"""

# Scrolled into view, every line and control of the play area stands clear of the sticky
# limits bar: the bar is on top once stuck, so whatever it overlaps is covered.
COVERED_JS = """() => {
  const problems = [];
  const bar = document.querySelector("#limits");
  if (!bar) return ["no limits bar"];
  const targets = document.querySelectorAll(
    "#play h2, #play tr, #play button, #play input:not([type=hidden]), #play select, " +
    "#play label.choice, #play summary, #play p");
  for (const el of targets) {
    if (bar.contains(el) || el.closest(".visually-hidden")) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    el.scrollIntoView({ block: "start" });
    const top = el.getBoundingClientRect().top;
    const under = bar.getBoundingClientRect();
    const bottom = el.getBoundingClientRect().bottom;
    if (top < under.bottom - 1 && bottom > under.top + 1) {
      const text = el.textContent.trim().replace(/\\s+/g, " ").slice(0, 30);
      const [at, end] = [Math.round(top), Math.round(under.bottom)];
      problems.push(`${el.tagName.toLowerCase()}#${el.id} «${text}» is under the bar ` +
                    `(its top at ${at}px, the bar's end at ${end}px)`);
    }
  }
  window.scrollTo(0, 0);
  return problems;
}"""


@pytest.fixture
def table_world(make_user):
    """A designated-player table open with its dealer and five players (four spots a hand)."""
    supervisor = make_user("floor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    cardroom = cardroom_create(name="Riverside", by=an_administrator())
    table = table_create(
        cardroom=cardroom, name="Table 1", banking="designated_player", by=supervisor
    )
    table_open(table=table, dealer=dealer, by=supervisor)
    seats = {}
    for seat, name, buy_in in PLAYERS:
        player = player_create(cardroom=cardroom, name=name, by=dealer)
        seats[seat] = seat_player(table=table, seat=seat, player=player, buy_in=buy_in, by=dealer)
    return table, dealer, seats


def _fits(page: Page, url: str | None, state: str, panel: str) -> list[str]:
    """The screen in ``state`` at each size (loaded from ``url``, or as it is when None: the
    answer to a post): its screenshot (the step's panel scrolled into view, as the dealer sees
    it) for the docs, then what does not fit."""
    problems = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        if url is not None:
            page.goto(url)
        expect(page.locator(panel)).to_be_visible()
        page.locator(panel).evaluate("el => el.scrollIntoView({block: 'start'})")
        shot = DOCS_SCREENSHOTS / f"dealer-{state}-{size}.png"
        page.screenshot(path=str(shot))  # before the checks: to look at when they fail
        assert shot.read_bytes()[:8] == PNG_SIGNATURE
        found = page.evaluate(OVERFLOW_JS) + page.evaluate(COVERED_JS)
        if state == "settlement":
            found += page.evaluate(CLIPPED_JS)
        problems += [f"{state} at {size}: {problem}" for problem in found]
    return problems


def test_the_dealer_screen_fits_every_size_in_every_state(
    live_server, new_page, table_world, password
):
    table, dealer, seats = table_world
    page = new_page()
    log_in(page, live_server.url, "dee", password)
    url = f"{live_server.url}/dealer/tables/{table.pk}/"
    problems = _fits(page, url, "seats", "#seats")

    hand = hands.hand_start(table=table, by=dealer, draw_cards=DRAW_SEAT_5)
    problems += _fits(page, url, "wagers", "#wagers-form")
    # Refused: an ante below the table's minimum on every seat, each named beside its seat.
    for ante in page.locator("#wagers input[data-wager='ante']").all():
        ante.fill("3")
    page.get_by_role("button", name="Place wagers").click()
    expect(page.locator("#error-summary")).to_be_visible()
    problems += _fits(page, None, "wagers-refused", "#wagers-form")

    spots = sorted(seat for seat in seats if seats[seat].pk != hand.dp_seating_id)
    assert len(spots) == 4
    for seat in spots:
        # Every bonus on one spot, so that the settlement's widest row is there.
        bonus = "25" if seat == spots[0] else "5"
        hands.wager_place(
            hand=hand,
            seating=seats[seat],
            ante="100" if seat == spots[0] else "10",
            flush_bonus=bonus,
            straight_flush_bonus=bonus if seat == spots[0] else "0",
            by=dealer,
        )
    problems += _fits(page, url, "cards", "#cards-form")

    hands.hand_cards_enter(
        hand=hand,
        dealer_cards=HANDS[-1],
        spot_cards=dict(zip(spots, HANDS[:4], strict=True)),
        by=dealer,
    )
    problems += _fits(page, url, "decisions", "#decisions-form")

    # A dead spot (R14: its wagers go back), a raise at the cap, a fold; settled.
    hands.spot_declare_dead(hand=hand, seat=spots[3], by=dealer)
    cap = page.locator(f"#id_decisions_raise_amount_{spots[0]}").input_value()
    hands.spot_decide(hand=hand, seat=spots[0], decision="raise", raise_amount=cap, by=dealer)
    hands.spot_decide(hand=hand, seat=spots[1], decision="raise", raise_amount="10", by=dealer)
    hands.spot_decide(hand=hand, seat=spots[2], decision="fold", by=dealer)
    hands.hand_settle(hand=hand, by=dealer)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    problems += _fits(page, url, "settlement", "#settlement")
    expect(page.locator(f"#result-{spots[3]}")).to_contain_text("dead")

    assert not problems, "\n".join(problems)


def test_scrolling_to_a_control_puts_it_below_the_limits_bar_in_portrait(
    live_server, new_page, table_world, password
):
    """Focus moves the page as a tap or the keyboard does: the focused field is clear of the
    bar (the scroll padding is the bar's height, measured, at every width)."""
    table, dealer, seats = table_world
    hands.hand_start(table=table, by=dealer, draw_cards=DRAW_SEAT_5)
    page = new_page()
    page.set_viewport_size({"width": 768, "height": 1024})
    log_in(page, live_server.url, "dee", password)
    page.goto(f"{live_server.url}/dealer/tables/{table.pk}/")
    bar = page.locator("#limits")
    expect(bar).to_be_visible()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    last = page.locator("#wagers tr.wager-row").last.locator("input[data-wager='ante']")
    first = page.locator("#wagers tr.wager-row").first.locator("input[data-wager='ante']")
    for field in (last, first):
        field.evaluate("el => el.scrollIntoView({block: 'start'})")
        field.focus()
        assert (
            field.bounding_box()["y"] >= bar.bounding_box()["y"] + bar.bounding_box()["height"] - 1
        )
    padding = page.evaluate(
        "parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop)"
    )
    assert padding >= bar.bounding_box()["height"]
