"""The landing page: the pitch, the waitlist form, the demo table drawn from the engine, the FAQ."""

# ruff: noqa: RUF001 - the page is checked in Greek, whose letters look like Latin ones.

import re
from html import unescape

import pytest
from django.template import engines
from django.utils import translation

from games.engine import DECK, Card, EngineError, Play, find_declarations, parse_cards
from games.templatetags import cards
from lobby import demo

pytestmark = pytest.mark.django_db

COPY = {
    "el": (
        "Κυπριακή πιλόττα, όπως στο τραπέζι",
        "Το τραπέζι ανοίγει σύντομα",
        "Μια γύρα σε εξέλιξη",
    ),
    "en": (
        "Cypriot Pilotta, just like at the table",
        "The table opens soon",
        "A round in progress",
    ),
    "fr": (
        "La Pilotta chypriote, comme à la table",
        "La table ouvre bientôt",
        "Une donne en cours",
    ),
}
# The viewer's hand (King and Queen of hearts playable) and the three cards on the trick.
CARD_NAMES = {
    "el": ("Ρήγας κούπα", "Ντάμα κούπα", "Άσσος μπαστούνι", "Δεκάρι καρό", "Βαλές μπαστούνι"),
    "en": (
        "King of hearts",
        "Queen of hearts",
        "Ace of spades",
        "Ten of diamonds",
        "Jack of spades",
    ),
    "fr": ("Roi de cœur", "Dame de cœur", "As de pique", "Dix de carreau", "Valet de pique"),
}


def landing(client, language):
    response = client.get(f"/{language}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", ["el", "en", "fr"])
def test_the_landing_page_speaks_each_language(client, language):
    html = landing(client, language)

    for text in COPY[language]:
        assert text in html
    assert f'<html lang="{language}"' in html


@pytest.mark.parametrize("language", ["el", "en", "fr"])
def test_the_demo_table_shows_cards_by_their_translated_names(client, language):
    html = landing(client, language)

    for name in CARD_NAMES[language]:
        assert f'role="img" aria-label="{name}"' in html


def test_the_demo_table_is_a_real_table_in_mid_play(client):
    html = landing(client, "en")
    table = html[html.index('<figure class="demo-table">') : html.index("</figure>")]

    for position in ("top", "left", "right", "bottom"):
        assert f"seat seat-{position}" in table
    assert re.findall(r'trick-slot trick-(\w+)"', table) == ["right", "top", "left"]
    assert re.findall(
        r'hand-card is-playable"><span class="card card-\w+ card-large" '
        r'role="img" aria-label="[^"]+" data-card="(\w\w)"',
        table,
    ) == ["KH", "QH"]
    assert table.count('class="hand-card') == 5
    assert table.count("card-back") == 3
    assert "closed ×2" in table
    assert "Us 55 · Them 11" in table
    assert "Tierce 20" in table
    assert "Quarte 50" in table


def test_the_demo_follows_the_rules_engine():
    state = demo.demo_state()
    table = demo.demo_table()

    legal = {str(action.card) for action in state.legal_actions() if isinstance(action, Play)}
    assert {code for code, playable in table.hand if playable} == legal == {"KH", "QH"}
    assert [code for code, _ in table.hand] == [str(card) for card in state.hand(demo.VIEWER)]
    assert state.to_act == demo.VIEWER
    assert (table.contract_value, table.trump, table.multiplier) == (100, "H", 2)
    assert sum(table.round_points) == sum(trick.points for trick in state.tricks)


def test_the_landing_page_has_a_waitlist_form_that_works_without_javascript(client):
    html = landing(client, "fr")

    assert re.search(r'<form class="waitlist-form" method="post" action="/fr/waitlist/"', html)
    assert 'hx-post="/fr/waitlist/"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert re.search(r'<input type="email" name="email"[^>]* required', html)
    assert '<option value="el">Ελληνικά</option>' in html
    assert re.search(r'<option value="fr"[^>]* selected>français</option>', html)
    # The honeypot is in the page but hidden from people and assistive technology.
    assert re.search(r'<div class="waitlist-trap" aria-hidden="true">', html)
    assert 'name="website"' in html


@pytest.mark.parametrize(
    ("language", "topics"),
    [
        (
            "el",
            (
                "πώς παίζεται",
                "μιλήματα",
                "κοψιά",
                "υποτσάκισμα",
                "κάθε φύλλο",
                "δηλώσεις",
                "πιλόττα",
                "καπό",
                "κλειστό",
                "κανόνας του 6",
                "κλασικό παιχνίδι",
                "δύο ή τρεις",
                "προστασία του συμπαίκτη",
            ),
        ),
        (
            "en",
            (
                "how is it played",
                "bidding",
                "kopsia",
                "under-trumping",
                "each card worth",
                "declarations",
                "pilotta",
                "capot",
                "closing",
                "Rule of 6",
                "classic game",
                "two or three",
                "partner protection",
            ),
        ),
        (
            "fr",
            (
                "comment y joue-t-on",
                "enchères",
                "couper",
                "sous-couper",
                "chaque carte",
                "annonces",
                "pilotta",
                "capot",
                "contrer",
                "règle du 6",
                "jeu classique",
                "deux ou à trois",
                "protection du partenaire",
            ),
        ),
    ],
)
def test_the_faq_answers_the_usual_questions_in_details_elements(client, language, topics):
    html = landing(client, language)
    faq = html[html.index('<section class="faq"') :]
    summaries = " ".join(re.findall(r"<summary>(.*?)</summary>", faq)).lower()

    assert faq.count("<details>") == faq.count("</details>") == 15
    for topic in topics:
        assert topic.lower() in summaries, topic
    assert "tsaka tsaka" in unescape(faq) or "τσάκα τσάκα" in unescape(faq)


@pytest.mark.parametrize("language", ["el", "en", "fr"])
def test_the_landing_page_links_to_the_rules(client, language):
    html = landing(client, language)

    assert f'href="/{language}/rules/"' in html
    assert f'href="/{language}/rules/#declarations"' in html


def test_the_home_page_answers_get_and_head_only(client):
    assert client.head("/en/").status_code == 200
    assert client.post("/en/").status_code == 405


# The card partial and its template tag, shared with the live table


@pytest.mark.parametrize(
    ("language", "ranks", "jack_of_hearts"),
    [
        ("el", ["7", "8", "9", "10", "Β", "Ν", "Ρ", "Α"], "Βαλές κούπα"),
        ("en", ["7", "8", "9", "10", "J", "Q", "K", "A"], "Jack of hearts"),
        ("fr", ["7", "8", "9", "10", "V", "D", "R", "A"], "Valet de cœur"),
    ],
)
def test_every_card_has_a_corner_label_and_a_distinct_name(language, ranks, jack_of_hearts):
    with translation.override(language):
        faces = [cards.card_face(card) for card in DECK]

    assert [face.rank for face in faces[:8]] == ranks
    assert len({face.name for face in faces}) == 32
    assert next(face.name for face in faces if face.code == "JH") == jack_of_hearts


def test_hearts_and_diamonds_are_red_clubs_and_spades_black():
    colours = {code: cards.card_face(code).colour for code in ("7C", "7D", "7H", "7S")}
    symbols = {code: cards.card_face(code).suit for code in ("7C", "7D", "7H", "7S")}

    assert colours == {"7C": "black", "7D": "red", "7H": "red", "7S": "black"}
    assert symbols == {"7C": "♣", "7D": "♦", "7H": "♥", "7S": "♠"}


def test_the_card_tag_draws_a_labelled_card_or_a_face_down_one():
    sized = engines["django"].from_string('{% load cards %}{% card card size="small" %}')
    plain = engines["django"].from_string("{% load cards %}{% card card %}")
    with translation.override("el"):
        face_up = sized.render({"card": "TD"})
        from_card = plain.render({"card": Card.parse("TD")})
        from_face = plain.render({"card": cards.card_face("TD")})
        face_down = plain.render({"card": None})

    assert face_up == (
        '<span class="card card-red card-small" role="img" aria-label="Δεκάρι καρό" '
        'data-card="TD"><span class="card-rank" aria-hidden="true">10</span>'
        '<span class="card-suit" aria-hidden="true">♦</span></span>'
    )
    assert from_card == from_face == face_up.replace(" card-small", "")
    assert face_down == '<span class="card card-back" role="img" aria-label="Κλειστό φύλλο"></span>'


def test_a_card_code_that_is_not_a_card_is_refused():
    with pytest.raises(EngineError):
        cards.card_face("1X")


@pytest.mark.parametrize(
    ("hand", "names"),
    [
        ("AS KS QS 7D 8D 7C 8C 9H", ["Tierce"]),
        ("AS KS QS JS 7D 8D 7C 9H", ["Quarte"]),
        ("AS KS QS JS TS 9S 7C 9H", ["Quinte"]),
        ("JS JH JD JC 7D 8D 7C 9H", ["Four Jacks"]),
        ("9S 9H 9D 9C 7D JD 7C AH", ["Four Nines"]),
    ],
)
def test_declarations_are_named_as_players_name_them(hand, names):
    declarations = find_declarations(parse_cards(hand))

    with translation.override("en"):
        assert [cards.declaration_name(d) for d in declarations] == names


def test_declaration_names_use_the_kafenio_words():
    [quarte] = find_declarations(parse_cards("AS KS QS JS 7D 8D 7C 9H"))

    with translation.override("el"):
        greek = cards.declaration_name(quarte)
    with translation.override("fr"):
        french = cards.declaration_name(quarte)

    assert (greek, french) == ("Πενηντάρι", "Cinquante")
