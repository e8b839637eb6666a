"""R1: cards, their notation, and the 52-bit hand encoding the evaluator works on.

A card is an int ``suit * 13 + rank`` with ranks 0..12 for 2..A and suits 0..3 for c d h s.
A hand is the int with one bit set per card: suit ``s`` holds bits ``13 * s`` to ``13 * s + 12``,
so ``suit_ranks(hand, s)`` is that suit's 13-bit rank mask (bit ``r`` set for rank ``r``) and
evaluation never builds a list of card objects.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import RoundError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
HAND_SIZE = 7
RANKS_PER_SUIT = len(RANKS)
#: One suit's ranks within a hand, once shifted down to bit 0 (``suit_ranks``).
SUIT_MASK = (1 << RANKS_PER_SUIT) - 1
DECK = tuple(range(52))
CARD_NAMES = tuple(RANKS[c % RANKS_PER_SUIT] + SUITS[c // RANKS_PER_SUIT] for c in DECK)

_CARD_BY_NAME = {name: card for card, name in enumerate(CARD_NAMES)}
_CARD_BY_NAME.update(
    {"10" + name[1]: card for name, card in _CARD_BY_NAME.items() if name[0] == "T"}
)
# Each card's bit in a hand, by its usual names (plain_hand).
_BIT_BY_NAME = {name: 1 << card for name, card in _CARD_BY_NAME.items()}
_bit_of = _BIT_BY_NAME.__getitem__


def parse_card(text: str, *, field: str) -> int:
    """One card in R1 notation: rank then suit, any letter case, ``10`` for ``T``."""
    card = _CARD_BY_NAME.get(text)
    if card is None:
        card = _CARD_BY_NAME.get(text[:-1].upper() + text[-1:].lower())
    if card is None:
        raise RoundError(
            field, f"'{text}' is not a card: write rank then suit, like As, Td, 10h or 9c (R1)."
        )
    return card


def parse_hand(value: object, *, field: str) -> int:
    """A hand given as ``"As Td 9h"`` (spaces or commas) or ``["As", "Td", "9h"]``.

    Refuses bad notation and a card written twice; the count is checked with the round (R1),
    so that a dealer who was dealt the wrong number gets the rule's own message.
    """
    hand = plain_hand(value)
    if hand is not None:
        return hand
    if isinstance(value, str):
        texts: Iterable[object] = value.replace(",", " ").split()
    elif isinstance(value, list):
        texts = value
    else:
        raise RoundError(field, "Cards must be a string like 'As Td 9h 8c 7d 3s 2h' (R1).")
    hand = 0
    for text in texts:
        if not isinstance(text, str):
            raise RoundError(field, f"{text!r} is not a card: write it as a string like 'As'.")
        bit = 1 << parse_card(text, field=field)
        if hand & bit:
            raise RoundError(field, f"{card_name(bit.bit_length() - 1)} is entered twice (R1).")
        hand |= bit
    return hand


def plain_hand(value: object) -> int | None:
    """The hand of a string of cards written the usual way (``"As Td 9h"``, ``10h`` too), each
    once; None for anything else, which ``parse_hand`` reads or refuses with its reason.

    The fast path of ``parse_hand`` and of settle-json's spots (settle_round --jsonl).
    """
    if type(value) is not str:
        return None
    texts = value.split()
    try:
        hand = sum(map(_bit_of, texts))
    except KeyError:  # commas, another letter case, or not a card
        return None
    # Distinct bits add up to as many set bits as there are cards; a card written twice carries.
    return hand if hand.bit_count() == len(texts) else None


def hand_from_cards(cards: Iterable[int]) -> int:
    hand = 0
    for card in cards:
        hand |= 1 << card
    return hand


def cards_of(hand: int) -> list[int]:
    """The cards of a hand, in deck order."""
    return [card for card in DECK if hand >> card & 1]


def suit_ranks(hand: int, suit: int) -> int:
    """The rank mask of one suit's cards in the hand (suit 0..3 for c d h s)."""
    return hand >> RANKS_PER_SUIT * suit & SUIT_MASK


def card_name(card: int) -> str:
    """Canonical notation: ``Td``, never ``10d`` (R1)."""
    return CARD_NAMES[card]


def hand_text(hand: int) -> str:
    return " ".join(card_name(card) for card in cards_of(hand))
