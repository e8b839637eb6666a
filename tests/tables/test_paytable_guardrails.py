"""R17 guardrails on a table's paytables (game-math.md): a house-banked table never pays more
than it takes in on any wager, and every table posts only paytables of its cardroom's
catalogue. A refusal names the setting and the figure, and writes nothing."""

from fractions import Fraction

import pytest

from core.errors import DomainError
from engine.hand_counts import HANDS
from engine.table import Banking
from tables import catalogue, figures, selectors
from tables.models import Table, TableSettings
from tables.rules import NEW_TABLE_DEFAULTS
from tables.services.setting_changes import setting_change_approve, setting_change_propose
from tables.staff_models import PaytableChange, SettingChange
from tests.conftest import signed

from .support import last_seq

pytestmark = pytest.mark.django_db

# Hands of C(52, 7) by largest flush and by longest straight-flush run (game-math.md's table),
# written out here, so that every return below is worked out by hand: Σ hands × (odds + 1).
FLUSH_HANDS = {4: 26_137_540, 5: 3_814_668, 6: 267_696, 7: 6_864}
RUN_HANDS = {3: 8_642_932, 4: 676_196, 5: 39_960, 6: 1_592, 7: 32}

OLD_FLUSH = {"4": 2, "5": 10, "6": 50, "7": 200}  # the contract's default: 101.2121% (paytable)
HOUSE_FLUSH = {"4": 1, "5": 10, "6": 100, "7": 300}  # the new house-banked default: 92.1928%
RICH_STRAIGHT_FLUSH = {"3": 10, "4": 60, "5": 100, "6": 500, "7": 1000}


def paytable_return(hands: dict[int, int], paytable: dict[str, int]) -> Fraction:
    return Fraction(sum(hands[int(size)] * (odds + 1) for size, odds in paytable.items()), HANDS)


def assert_refused(refused, *, field: str, words: list[str]) -> None:
    assert isinstance(refused.value, DomainError)
    assert refused.value.field == field
    for word in words:
        assert word in refused.value.message


@pytest.fixture
def row_counts():
    """Counts every row a refused change could have written; compares after the test body."""

    def counts():
        return (
            Table.objects.count(),
            TableSettings.objects.count(),
            SettingChange.objects.count(),
            PaytableChange.objects.count(),
            last_seq(),
        )

    before: dict = {}

    def start():
        before["counts"] = counts()

    def check():
        assert counts() == before["counts"]

    return start, check


# --- the defaults ----------------------------------------------------------------------------


def test_a_new_house_banked_table_is_proposed_the_flush_bonus_paying_92_1928_percent(
    house_table,
):
    settings = selectors.current_settings(house_table)
    assert settings.flush_paytable == HOUSE_FLUSH
    assert settings.bonus_mode == "paytable"
    flush = figures.settings_figures(settings).flush_bonus
    assert flush.return_ == paytable_return(FLUSH_HANDS, HOUSE_FLUSH)
    assert flush.to_json()["return"] == "0.921928"


def test_a_new_designated_player_table_keeps_the_contracts_flush_bonus_in_versus_dp_mode(
    dp_table,
):
    settings = selectors.current_settings(dp_table)
    assert (settings.flush_paytable, settings.bonus_mode) == (OLD_FLUSH, "versus_dp")
    assert figures.settings_figures(settings).flush_bonus.to_json()["return"] == "0.927577"


def test_the_new_table_defaults_change_for_house_banked_tables_only():
    house, dp = NEW_TABLE_DEFAULTS[Banking.HOUSE], NEW_TABLE_DEFAULTS[Banking.DESIGNATED_PLAYER]
    assert house["flush_paytable"] == HOUSE_FLUSH
    assert dp["flush_paytable"] == OLD_FLUSH
    assert house["straight_flush_paytable"] == dp["straight_flush_paytable"]


# --- no house-banked table at or above 100% --------------------------------------------------


def test_r17_a_house_banked_table_is_not_created_with_a_flush_bonus_returning_101_percent(
    make_table, row_counts
):
    start, check = row_counts
    start()
    with pytest.raises(DomainError) as refused:
        make_table("Generous", banking="house", settings={"flush_paytable": OLD_FLUSH})
    assert paytable_return(FLUSH_HANDS, OLD_FLUSH) == Fraction(135_406_128, 133_784_560)
    assert_refused(
        refused,
        field="flush_paytable",
        words=["Flush Bonus returns 101.2121%", "4:2, 5:10, 6:50, 7:200", "less than 100%"],
    )
    check()


def test_r17_a_change_to_a_house_banked_paytable_returning_100_percent_or_more_is_refused(
    house_table, supervisor, row_counts
):
    start, check = row_counts
    start()
    with pytest.raises(DomainError) as refused:
        setting_change_propose(
            table=house_table,
            values={"straight_flush_paytable": RICH_STRAIGHT_FLUSH},
            reason="Pay more",
            by=supervisor,
        )
    figure = figures.percent(paytable_return(RUN_HANDS, RICH_STRAIGHT_FLUSH))
    assert figure == "105.5322%"
    assert_refused(
        refused,
        field="straight_flush_paytable",
        words=[f"Straight Flush Bonus returns {figure}", "3:10, 4:60"],
    )
    check()


def test_r17_switching_a_house_banked_table_to_paytable_mode_is_refused_naming_the_mode(
    make_table, supervisor, row_counts
):
    """In versus_dp mode 4:2, 5:10, 6:50, 7:200 returns 92.7577%; judged on the paytable
    alone it returns 101.2121%: the change that makes it so is the mode's."""
    table = make_table(
        "Versus", banking="house", settings={"bonus_mode": "versus_dp", "flush_paytable": OLD_FLUSH}
    )
    start, check = row_counts
    start()
    with pytest.raises(DomainError) as refused:
        setting_change_propose(
            table=table, values={"bonus_mode": "paytable"}, reason="Simpler", by=supervisor
        )
    assert_refused(refused, field="bonus_mode", words=["Flush Bonus returns 101.2121%"])
    check()


def test_r17_a_change_paying_100_percent_on_top_of_one_approved_since_is_refused_at_approval(
    make_table, supervisor, second_supervisor
):
    table = make_table("Versus", banking="house", settings={"bonus_mode": "versus_dp"})
    paytable = setting_change_propose(
        table=table, values={"flush_paytable": OLD_FLUSH}, reason="Richer", by=supervisor
    )
    mode = setting_change_propose(
        table=table, values={"bonus_mode": "paytable"}, reason="Simpler", by=supervisor
    )
    setting_change_approve(
        change=paytable, signature=signed(second_supervisor), by=second_supervisor
    )
    seq, versions = last_seq(), TableSettings.objects.filter(table=table).count()
    with pytest.raises(DomainError) as refused:
        setting_change_approve(
            change=mode, signature=signed(second_supervisor), by=second_supervisor
        )
    assert_refused(refused, field="bonus_mode", words=["Flush Bonus returns 101.2121%"])
    mode.refresh_from_db()
    assert mode.status == SettingChange.Status.PENDING
    assert TableSettings.objects.filter(table=table).count() == versions
    assert last_seq() == seq


def test_a_designated_player_table_may_post_a_paytable_returning_more_than_100_percent(
    make_table,
):
    """There the designated player banks the bonuses, not the house: shown, not refused."""
    table = make_table("Player banked", settings={"bonus_mode": "paytable"})
    settings = selectors.current_settings(table)
    assert figures.settings_figures(settings).flush_bonus.return_ > 1


# --- only paytables of the catalogue ---------------------------------------------------------


def test_r17_a_table_is_not_created_with_a_paytable_outside_the_catalogue(make_table, row_counts):
    start, check = row_counts
    start()
    with pytest.raises(DomainError) as refused:
        make_table("Odd", settings={"flush_paytable": {"4": 3, "5": 10, "6": 50, "7": 200}})
    assert_refused(
        refused,
        field="flush_paytable",
        words=[
            "Flush Bonus paytable 4:3, 5:10, 6:50, 7:200 is not in",
            "catalogue of approved paytables",
            "4:1, 5:10, 6:100, 7:300; 4:2, 5:10, 6:50, 7:200",
        ],
    )
    check()


def test_r17_a_change_to_a_paytable_outside_the_catalogue_is_refused(
    dp_table, supervisor, row_counts
):
    start, check = row_counts
    start()
    with pytest.raises(DomainError) as refused:
        setting_change_propose(
            table=dp_table,
            values={"straight_flush_paytable": {"3": 7, "4": 50, "5": 100, "6": 200, "7": 500}},
            reason="New layout",
            by=supervisor,
        )
    assert_refused(
        refused,
        field="straight_flush_paytable",
        words=["Straight Flush Bonus paytable 3:7, 4:50, 5:100, 6:200, 7:500 is not in"],
    )
    check()


def test_r17_a_change_to_a_paytable_retired_since_it_was_proposed_is_refused_at_approval(
    dp_table, cardroom, supervisor, second_supervisor
):
    change = setting_change_propose(
        table=dp_table, values={"flush_paytable": HOUSE_FLUSH}, reason="Lower", by=supervisor
    )
    retire = catalogue.paytable_change_propose(
        cardroom=cardroom,
        kind="flush_paytable",
        lines=HOUSE_FLUSH,
        action="retire",
        reason="Withdrawn by the regulator",
        by=supervisor,
    )
    catalogue.paytable_change_approve(
        change=retire, signature=signed(second_supervisor), by=second_supervisor
    )
    seq = last_seq()
    with pytest.raises(DomainError) as refused:
        setting_change_approve(
            change=change, signature=signed(second_supervisor), by=second_supervisor
        )
    assert_refused(refused, field="flush_paytable", words=["4:1, 5:10, 6:100, 7:300 is not in"])
    assert selectors.current_settings(dp_table).version == 1
    assert last_seq() == seq


def test_a_paytable_approved_into_the_catalogue_may_then_be_posted(
    dp_table, cardroom, supervisor, second_supervisor, approve
):
    odd = {"4": 3, "5": 10, "6": 50, "7": 200}
    change = catalogue.paytable_change_propose(
        cardroom=cardroom, kind="flush_paytable", lines=odd, reason="Promotion", by=supervisor
    )
    catalogue.paytable_change_approve(
        change=change, signature=signed(second_supervisor), by=second_supervisor
    )
    version = approve(dp_table, flush_paytable=odd)
    assert version.flush_paytable == odd
