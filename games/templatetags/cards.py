"""Cards and declarations in templates: rank label, suit symbol, colour and translated names.

``{% card "JH" size="small" %}`` draws a card (``card`` may also be a Card or a CardFace; none
draws a face-down card; ``size`` is "small", "large" or empty).
"""

from dataclasses import dataclass
from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games.engine import Card, Declaration, Rank, Suit

register = template.Library()

SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
RED_SUITS = frozenset({Suit.DIAMONDS, Suit.HEARTS})
NUMBER_LABELS = {Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10"}


@dataclass(frozen=True)
class CardFace:
    """What a template shows of a card."""

    code: str
    rank: str
    suit: str
    colour: str
    name: str


def rank_label(rank: Rank) -> str:
    """Return the rank as printed in a card's corner: 7 8 9 10 J Q K A in English."""
    if rank in NUMBER_LABELS:
        return NUMBER_LABELS[rank]
    labels = {
        Rank.JACK: pgettext("card corner: Jack", "J"),
        Rank.QUEEN: pgettext("card corner: Queen", "Q"),
        Rank.KING: pgettext("card corner: King", "K"),
        Rank.ACE: pgettext("card corner: Ace", "A"),
    }
    return labels[rank]


def rank_name(rank: Rank) -> str:
    """Return the rank's name, e.g. Jack."""
    names = {
        Rank.SEVEN: pgettext("card rank", "Seven"),
        Rank.EIGHT: pgettext("card rank", "Eight"),
        Rank.NINE: pgettext("card rank", "Nine"),
        Rank.TEN: pgettext("card rank", "Ten"),
        Rank.JACK: pgettext("card rank", "Jack"),
        Rank.QUEEN: pgettext("card rank", "Queen"),
        Rank.KING: pgettext("card rank", "King"),
        Rank.ACE: pgettext("card rank", "Ace"),
    }
    return names[rank]


def suit_name(suit: Suit) -> str:
    """Return the suit's name as it follows a rank, e.g. hearts."""
    names = {
        Suit.CLUBS: pgettext("card suit", "clubs"),
        Suit.DIAMONDS: pgettext("card suit", "diamonds"),
        Suit.HEARTS: pgettext("card suit", "hearts"),
        Suit.SPADES: pgettext("card suit", "spades"),
    }
    return names[suit]


def card_name(card: Card) -> str:
    """Return the card's full name, e.g. Jack of hearts."""
    return pgettext("card name", "%(rank)s of %(suit)s") % {
        "rank": rank_name(card.rank),
        "suit": suit_name(card.suit),
    }


def to_card(value: Card | str) -> Card:
    """Accept a card or its code such as JH."""
    return value if isinstance(value, Card) else Card.parse(str(value))


def to_suit(value: Suit | str) -> Suit:
    """Accept a suit or its letter such as H."""
    return value if isinstance(value, Suit) else Suit.parse(str(value))


@register.simple_tag
def card_face(card: CardFace | Card | str | None) -> CardFace | None:
    """Return the face of a card given as a Card or a code; None (a face-down card) for none."""
    if card is None or card == "":
        return None
    if isinstance(card, CardFace):
        return card
    return _face(to_card(card), get_language())


@lru_cache(maxsize=32 * 8)
def _face(card: Card, language: str | None) -> CardFace:
    # 32 cards in a handful of languages: every table draws the same few faces over and over.
    return CardFace(
        code=str(card),
        rank=rank_label(card.rank),
        suit=SUIT_SYMBOLS[card.suit],
        colour="red" if card.suit in RED_SUITS else "black",
        name=card_name(card),
    )


@register.simple_tag(name="card")
def card_tag(card: CardFace | Card | str | None, size: str = "") -> SafeString:
    """Draw a card, face up or (for none) face down, at ``size``.

    A tag rather than an included template: a hand, a trick and the last trick draw a dozen
    cards per change of the table, and an include costs far more than this.
    """
    return _card_html(card_face(card), size, get_language())


@lru_cache(maxsize=32 * 3 * 8)
def _card_html(face: CardFace | None, size: str, language: str | None) -> SafeString:
    sized = f" card-{size}" if size else ""
    if face is None:
        return format_html(
            '<span class="card card-back{}" role="img" aria-label="{}"></span>',
            sized,
            _("Face-down card"),
        )
    return format_html(
        '<span class="card card-{}{}" role="img" aria-label="{}" data-card="{}">'
        '<span class="card-rank" aria-hidden="true">{}</span>'
        '<span class="card-suit" aria-hidden="true">{}</span></span>',
        face.colour,
        sized,
        face.name,
        face.code,
        face.rank,
        face.suit,
    )


@register.filter
@register.simple_tag
def suit_symbol(suit: Suit | str) -> str:
    """Return the symbol of a suit given as a Suit or a letter (a filter and a tag)."""
    return SUIT_SYMBOLS[to_suit(suit)]


@register.filter
def suit_colour(suit: Suit | str) -> str:
    """Return "red" or "black" for a suit given as a Suit or a letter."""
    return "red" if to_suit(suit) in RED_SUITS else "black"


@register.filter(name="suit_name")
def suit_name_filter(suit: Suit | str) -> str:
    """Return the translated name of a suit given as a Suit or a letter."""
    return suit_name(to_suit(suit))


@register.filter
def declaration_name(declaration: Declaration) -> str:
    """Name a declaration as players do: tierce, quarte, quinte, or four of a kind."""
    if declaration.kind == "run":
        if declaration.length == 3:
            return _("Tierce")
        if declaration.length == 4:
            return _("Quarte")
        return _("Quinte")
    fours = {
        Rank.JACK: _("Four Jacks"),
        Rank.NINE: _("Four Nines"),
        Rank.ACE: _("Four Aces"),
        Rank.TEN: _("Four Tens"),
        Rank.KING: _("Four Kings"),
        Rank.QUEEN: _("Four Queens"),
    }
    return fours[declaration.rank]
