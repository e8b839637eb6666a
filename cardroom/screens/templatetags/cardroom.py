"""Template filters for money, settlement lines and game-math figures."""

from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils import dateformat, timezone
from django.utils.safestring import SafeString

from cardroom.screens.forms.ids import form_for_row
from cardroom.screens.settlement_words import return_words
from core.money import dollars_text, money_text
from core.people import person_name
from engine.game_math import format_figure
from tables.figures import paytable_lines

register = template.Library()


@register.filter
def money(value: Decimal | str | int | None) -> str:
    """``Decimal("5")`` → ``"5.00"``; empty for None."""
    return "" if value is None else money_text(Decimal(value))


@register.filter
def person(user: Any) -> str:
    """A person by full name (the username only for an account with none)."""
    return person_name(user)


@register.filter
def signed(value: Decimal | str | int) -> str:
    """A net with its sign: ``+25.00``, ``-5.00``, ``0.00``."""
    try:
        number = Decimal(value)
    except (InvalidOperation, TypeError):
        return str(value)
    return f"+{money_text(number)}" if number > 0 else money_text(number)


@register.filter
def sign(value: Decimal | str | int) -> str:
    """A CSS class for a net: win, lose or push."""
    try:
        number = Decimal(value)
    except (InvalidOperation, TypeError):
        return ""
    return "win" if number > 0 else "lose" if number < 0 else "push"


#: R12: who pays the table's fee, by ``rake_mode``, as the limits bar says it.
FEE_PAYERS = {
    "all_players": "every spot and the DP",
    "players_not_dp": "every spot, not the DP",
    "dp_only": "the DP only",
    "none": "nobody",
}
#: Who banks the game, by ``banking``.
BANKING_WORDS = {"designated_player": "the designated player banks", "house": "house-banked"}


@register.filter
def fee_payers(rake_mode: str) -> str:
    """``"all_players"`` → ``"every spot and the DP"`` (R12)."""
    return FEE_PAYERS.get(str(rake_mode), str(rake_mode).replace("_", " "))


@register.filter
def banking_words(banking: str) -> str:
    """``"designated_player"`` → ``"the designated player banks"``."""
    return BANKING_WORDS.get(str(banking), str(banking).replace("_", " "))


#: A hand in progress, by its status, as the dealer's header says where it stands.
HAND_STATUS_WORDS = {
    "open": "started, no wager yet",
    "wagering": "taking wagers",
    "dealt": "cards dealt",
    "decisions": "decisions",
    "settled": "settled",
    "dead": "misdeal",
}


@register.filter
def hand_status_words(status: str) -> str:
    return HAND_STATUS_WORDS.get(str(status), str(status).replace("_", " "))


def _spot_stakes(spot: Any) -> dict[str, Decimal]:
    """The chips on a spot (a ``wagers.Spot``), by wager, those placed only."""
    stakes = {
        "ante": spot.ante,
        "raise": spot.raise_amount,
        "flush_bonus": spot.flush_bonus,
        "straight_flush_bonus": spot.straight_flush_bonus,
    }
    return {name: Decimal(amount) for name, amount in stakes.items() if amount}


@register.filter
def spot_return_words(spot: Any) -> str:
    """R14: what a spot declared dead hands back: "return $15.00 (ante 10, bonus 5)"."""
    return return_words(_spot_stakes(spot))


@register.filter
def spots_staked(spots: Any) -> Decimal:
    """Every chip on the spots of a hand: what a misdeal returns (R14)."""
    return sum(
        (sum(_spot_stakes(spot).values(), Decimal("0.00")) for spot in spots or ()), Decimal("0.00")
    )


@register.filter
def percent(value: Fraction | None, places: int = 4) -> str:
    """An exact ratio as a percentage: ``Fraction(921928, 10**6)|percent`` → ``92.1928%``
    (rounded half-even, as game-math.md prints figures); a dash for None."""
    if value is None:
        return "–"
    return f"{format_figure(Fraction(value) * 100, int(places))}%"


#: R1 suits as a player reads them, and the four-colour deck's class per suit.
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


@register.filter
def card(name: str) -> str:
    """``"Th"`` → ``"T♥"``: a card in R1 notation with its suit's symbol."""
    name = str(name)
    return name[:-1] + SUIT_SYMBOLS.get(name[-1:], name[-1:]) if name else ""


@register.inclusion_tag("dealer/_cards.html")
def cards(text: str, strong: bool = False, dealt: bool = True) -> dict[str, Any]:
    """A hand's cards, each with its suit symbol and its colour of the four-colour deck.
    ``dealt``: the cards are in this round's hands (the picker greys them out); the high-card
    draw's are not."""
    return {
        "cards": [(c, card(c), c[-1:], SUIT_WORDS.get(c[-1:], "")) for c in str(text).split()],
        "strong": strong,
        "dealt": dealt,
    }


#: R14 dead reasons in a dealer's words.
DEAD_REASONS = {
    "wrong_card_count": "wrong number of cards",
    "dealer_funds": "the DP's bank could not cover it",
    "misdeal": "misdeal",
    # R14's misdeals, by their reason.
    "dealer_card_count": "a wrong number of cards to the dealer",
    "shuffler_fault": "shuffler fault",
}


@register.filter
def dead_words(reason: str) -> str:
    return DEAD_REASONS.get(str(reason), str(reason).replace("_", " "))


@register.filter
def dollars(value: Decimal | str | int | None) -> str:
    """``Decimal("20000")`` → ``"$20,000.00"``; ``-5`` → ``"-$5.00"``; empty for None."""
    if value is None or value == "":
        return ""
    return dollars_text(Decimal(value))


@register.filter
def signed_dollars(value: Decimal | str | int) -> str:
    """A net with its sign and ``$``: ``+$25.00``, ``-$5.00``, ``$0.00``."""
    try:
        number = Decimal(value)
    except (InvalidOperation, TypeError):
        return str(value)
    return f"+{dollars_text(number)}" if number > 0 else dollars_text(number)


@register.filter
def total(form: Any, kind: str = "") -> Decimal:
    """A count form's running total so far: of one kind of pieces (``cash``), or all."""
    return Decimal(form.total(kind or None))


@register.filter
def for_row(form: Any, row: object) -> Any:
    """``{{ form|for_row:incident.pk }}``: a form shown once per row, with ids of its own."""
    return form_for_row(form, row)


@register.filter
def local(value: datetime | None, fmt: str = "Y-m-d H:i") -> str:
    """A moment in the active time zone (the cardroom's, on every screen), labelled with the
    zone's abbreviation: ``2026-03-07 14:05 PST``; ``|local:"H:i"`` → ``14:05 PST``. Empty
    for None."""
    if value is None or value == "":
        return ""
    if not isinstance(value, datetime):
        return str(value)
    moment = timezone.localtime(value) if timezone.is_aware(value) else value
    return f"{dateformat.format(moment, fmt)} {moment.tzname() or ''}".strip()


@register.simple_tag
def zone_name() -> str:
    """The active time zone's name, e.g. ``America/Los_Angeles``."""
    return timezone.get_current_timezone_name()


@register.filter
def local_day(value: date | None) -> str:
    """A gaming day as ``Sat 2026-03-07``."""
    return "" if value is None else dateformat.format(value, "D Y-m-d")


#: The header of a paytable's first row, by the setting (or catalogue kind) that holds it (R10).
PAYTABLE_HEADINGS = {"flush_paytable": "Flush of", "straight_flush_paytable": "Straight flush of"}


@register.simple_tag
def paytable(lines: Any, kind: str, caption: str = "", id: str = "") -> SafeString:
    """A paytable as a small table under its header: a row per flush size (or straight-flush
    length), smallest first, with what it pays, ``N to 1`` (R10). Two columns, so that it
    fits in another table's cell on a tablet.
    ``{% paytable values.flush_paytable "flush_paytable" caption="Flush Bonus paytable" %}``."""
    return render_to_string(
        "floor/_paytable.html",
        {
            "lines": sorted(paytable_lines(lines).items()),
            "heading": PAYTABLE_HEADINGS.get(str(kind), "Size"),
            "caption": caption,
            "id": id,
        },
    )


@register.filter
def setting_changes(change: Any) -> list[tuple[str, str, str]]:
    """A setting change as the floor reads it: (label, old, new) per setting, paytables as
    tables (``paytable``); the old value is the one in force when the change was proposed or
    decided."""
    from cardroom.screens.forms.tables import setting_label

    old, new = change.old_values or {}, change.new_values or {}

    def shown(name: str, value: Any) -> str:
        if isinstance(value, dict):
            return paytable(value, name)
        return "no cap" if value is None else str(value).replace("_", " ")

    return [
        (setting_label(name), shown(name, old.get(name, "")), shown(name, new[name]))
        for name in new
    ]


@register.inclusion_tag("screens/_refusal.html", takes_context=True)
def refusal(context: template.Context) -> dict[str, Any]:
    """The reason of a refused action at the top of the page (role="alert"), whichever field
    the service named — a hidden one (a day close's gaming day) included."""
    return {"refusals": getattr(context.get("request"), "refusals", [])}
