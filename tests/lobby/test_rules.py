"""The rules page and the FAQ state the rules of both games, and agree with the engine."""

# ruff: noqa: RUF001 - the page is checked in Greek, whose letters look like Latin ones.

import re
from html import unescape

import pytest
from django.utils import translation

from games.engine import Card, Contract, Rank, Suit, parse_cards, round_to_sheet, score_round
from games.engine.cards import card_points
from games.engine.declarations import FOUR_VALUES, find_declarations, run_value
from games.templatetags.cards import rank_name

LANGUAGES = ["el", "en", "fr"]
TITLES = {
    "el": "Οι κανόνες της κυπριακής πιλόττας",
    "en": "The rules of Cypriot Pilotta",
    "fr": "Les règles de la Pilotta chypriote",
}


def page(client, path):
    response = client.get(path)
    assert response.status_code == 200
    return unescape(response.content.decode())


def text_of(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def table_rows(html, caption):
    """Return the (header, cells) rows of the table with this caption."""
    table = re.search(rf"<caption>{re.escape(caption)}</caption>(.*?)</table>", html, re.S)
    assert table, caption
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)[1:]
    return [
        [text_of(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
        for row in rows
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_page_is_served_in_each_language(client, language):
    html = page(client, f"/{language}/rules/")

    assert f"<h1>{TITLES[language]}</h1>" in html
    assert f'href="/{language}/#waitlist"' in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_page_states_the_key_numbers(client, language):
    text = text_of(page(client, f"/{language}/rules/"))

    for number in ("162", "250", "301", "251", "351", "401", "80", "400", "322", "20", "10"):
        assert re.search(rf"(?<!\d){number}(?!\d)", text), number
    assert "2 × 80 + 162 = 322" in text
    assert "×2" in text
    assert "×4" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_card_value_tables_match_the_engine(client, language):
    html = page(client, f"/{language}/rules/")
    with translation.override(language):
        names = {rank_name(rank): rank for rank in Rank}
        captions = (translation.gettext("In trumps"), translation.gettext("In the other suits"))

    trump_rows = table_rows(html, captions[0])
    side_rows = table_rows(html, captions[1])

    trump_values = {names[name]: int(points) for name, points in trump_rows}
    side_values = {names[name]: int(points) for name, points in side_rows}
    assert trump_values == {
        rank: card_points(Card(Suit.HEARTS, rank), Suit.HEARTS) for rank in Rank
    }
    assert side_values == {rank: card_points(Card(Suit.SPADES, rank), Suit.HEARTS) for rank in Rank}
    # Both tables list the cards from the strongest down.
    assert [int(points) for _, points in trump_rows] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [int(points) for _, points in side_rows] == [11, 10, 4, 3, 2, 0, 0, 0]
    assert sum(trump_values.values()) + 3 * sum(side_values.values()) + 10 == 162


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_declaration_table_matches_the_engine(client, language):
    html = page(client, f"/{language}/rules/")
    with translation.override(language):
        caption = translation.gettext("What each declaration scores")

    points = [int(cells[1]) for cells in table_rows(html, caption)]

    assert points == [
        run_value(3),
        run_value(4),
        run_value(5),
        FOUR_VALUES[Rank.JACK],
        FOUR_VALUES[Rank.NINE],
        FOUR_VALUES[Rank.ACE],
    ]
    assert points == [20, 50, 100, 200, 150, 100]
    assert {FOUR_VALUES[rank] for rank in (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN)} == {100}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rule_of_6_examples_match_the_engine(client, language):
    html = page(client, f"/{language}/rules/")
    with translation.override(language):
        caption = translation.gettext("From points to the score sheet")

    rows = table_rows(html, caption)

    assert len(rows) == 4
    for points, sheet in rows:
        raw = tuple(int(n) for n in re.findall(r"\d+", points))
        # The bidders are the first team in every example.
        assert round_to_sheet(raw, 0) == tuple(int(n) for n in re.findall(r"\d+", sheet))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_faq_states_the_key_numbers(client, language):
    html = page(client, f"/{language}/")
    faq = text_of(html[html.index('<section class="faq"') :])

    for number in ("162", "250", "301", "80", "400", "322", "126", "36", "200", "150", "14"):
        assert re.search(rf"(?<!\d){number}(?!\d)", faq), number
    assert [int(p) for _, p in table_rows(html, translation_of("In trumps", language))] == [
        20,
        14,
        11,
        10,
        4,
        3,
        0,
        0,
    ]


def translation_of(msgid, language):
    with translation.override(language):
        return translation.gettext(msgid)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_page_is_linked_from_the_landing_page(client, language):
    html = page(client, f"/{language}/")

    assert f'<a href="/{language}/rules/">' in html


# The classic game: turned-up trump, 2 to 4 players, played to 1000.

CLASSIC_TITLES = {
    "el": "Το κλασικό παιχνίδι στους 1000",
    "en": "The classic game to 1000",
    "fr": "Le jeu classique en 1000",
}

# With 24 cards a run goes from the Ace down to the Nine, in the page's letters.
SHORT_RUN = {"el": "Α Ρ Ν Β 10 9", "en": "A K Q J 10 9", "fr": "A R D V 10 9"}


def classic_section(html):
    section = re.search(r'<section id="classic"[^>]*>(.*?)</section>', html, re.S)
    assert section, "the rules page has no classic section"
    return section.group(1)


def passages(html):
    """Return the text of every heading, paragraph and list item."""
    found = re.findall(r"<(h3|p|li)>(.*?)</\1>", html, re.S)
    return [text_of(inner).strip() for _, inner in found]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_page_has_a_translated_classic_section(client, language):
    html = page(client, f"/{language}/rules/")
    section = classic_section(html)
    title = CLASSIC_TITLES[language]

    assert f'<a href="#classic">{title}</a>' in html
    assert f'<h2 id="classic-title">{title}</h2>' in section
    assert len(re.findall(r"<h3>", section)) >= 6


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_classic_section_states_its_key_numbers(client, language):
    text = text_of(classic_section(page(client, f"/{language}/rules/")))

    for number in ("1000", "262", "24", "32", "162", "100", "20"):
        assert re.search(rf"(?<!\d){number}(?!\d)", text), number
    assert "162 + 100 = 262" in text
    assert f"{SHORT_RUN[language]}." in text


@pytest.mark.parametrize("language", ["el", "fr"])
def test_the_classic_section_is_translated_throughout(client, language):
    # A missing French string falls back to the Greek one, then to the English msgid.
    texts = {lang: passages(classic_section(page(client, f"/{lang}/rules/"))) for lang in LANGUAGES}

    assert len(texts[language]) >= 30
    for other in LANGUAGES:
        if other != language:
            assert len(texts[language]) == len(texts[other])
            assert not set(texts[language]) & set(texts[other]), other


def test_the_classic_deck_of_24_cards_still_makes_162():
    nine_to_ace = [rank for rank in Rank if rank not in (Rank.SEVEN, Rank.EIGHT)]
    trumps = sum(card_points(Card(Suit.HEARTS, rank), Suit.HEARTS) for rank in nine_to_ace)
    side_suits = sum(
        card_points(Card(suit, rank), Suit.HEARTS)
        for suit in Suit
        if suit is not Suit.HEARTS
        for rank in nine_to_ace
    )

    assert len(nine_to_ace) * len(Suit) == 24
    assert trumps + side_suits == 152
    assert trumps + side_suits + 10 == 162


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_lead_names_both_games(client, language):
    html = page(client, f"/{language}/rules/")
    lead = text_of(re.search(r'<p class="rules-lead">(.*?)</p>', html, re.S).group(1))
    description = re.search(r'<meta name="description" content="([^"]*)"', html)

    assert "1000" in lead
    assert description, "the rules page has no description"
    assert "1000" in description.group(1)


CLASSIC_QUESTIONS = [
    "What is the classic game?",
    "Can we play with two or three players?",
    "What is partner protection?",
    "Why is there no Rule of 6 in the classic game?",
]


def faq_answer(html, question):
    """Return the text under the FAQ question, or None when the FAQ does not ask it."""
    details = re.search(
        rf"<summary>{re.escape(question)}</summary>(.*?)</details>",
        html[html.index('<section class="faq"') :],
        re.S,
    )
    return text_of(details.group(1)).strip() if details else None


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_faq_answers_questions_about_the_classic_game(client, language):
    pages = {lang: page(client, f"/{lang}/") for lang in LANGUAGES}
    html = pages[language]

    answers = []
    for question in CLASSIC_QUESTIONS:
        asked = {lang: translation_of(question, lang) for lang in LANGUAGES}
        answer = faq_answer(html, asked[language])
        assert answer, question
        # Each language asks and answers in its own words, not in a fallback's.
        for other in LANGUAGES:
            if other != language:
                assert asked[language] != asked[other], (question, other)
                assert answer != faq_answer(pages[other], asked[other]), (question, other)
        answers.append(answer)
    text = " ".join(answers)
    for number in ("1000", "262", "24"):
        assert re.search(rf"(?<!\d){number}(?!\d)", text), number
    assert f'href="/{language}/rules/#classic"' in html


# The worked examples of the rules page, played out by the engine.


def scored(*, bidders_shown, defenders_shown, tricks=(4, 4), pilotta=(0, 0), trump=Suit.HEARTS):
    contract = Contract(team=0, seat=0, value=80, trump=trump, multiplier=1)
    shown = [bidders_shown, defenders_shown]
    return score_round(contract, (81, 81), tricks, shown, pilotta)


def declarations(hand):
    return find_declarations(parse_cards(hand))


def test_example_a_quinte_beats_a_tierce_and_a_quarte():
    ours = declarations("AS KS QS 7D 8D 9D TD 9H")  # tierce 20 + quarte 50
    theirs = declarations("AC KC QC JC TC 7H 8H 9S")  # quinte 100

    result = scored(bidders_shown=ours, defenders_shown=theirs)

    assert sorted(d.value for d in ours) == [20, 50]
    assert result.declarations == (0, 100)


def test_example_four_kings_beat_a_quinte():
    kings = declarations("KS KH KD KC 7D 8C 9S AH")
    quinte = declarations("QD JD TD 9D 8D 7H 8H 8S")

    assert scored(bidders_shown=kings, defenders_shown=quinte).declarations == (100, 0)


def test_example_equal_quartes_the_one_in_trumps_wins_else_both_are_void():
    in_hearts = declarations("KH QH JH TH 7S 8S 7C 8C")
    in_spades = declarations("KS QS JS TS 7D 8D 9C AC")

    assert scored(bidders_shown=in_spades, defenders_shown=in_hearts).declarations == (0, 50)
    neither = scored(bidders_shown=in_spades, defenders_shown=in_hearts, trump=Suit.CLUBS)
    assert neither.declarations == (0, 0)


def test_example_the_pilotta_survives_four_jacks():
    jacks = declarations("JS JH JD JC 7D 8C 9S AS")

    result = scored(bidders_shown=jacks, defenders_shown=(), pilotta=(0, 20))

    assert (result.declarations, result.pilotta) == ((200, 0), (0, 20))


def test_example_bidders_without_a_trick_lose_their_declarations():
    quinte = declarations("AC KC QC JC TC 7H 8H 9S")
    tierce = declarations("AS KS QS 7D 9D JH 7C 9H")

    result = scored(bidders_shown=quinte, defenders_shown=tierce, tricks=(0, 8))

    assert result.declarations == (0, 20)
    assert result.capot == 1


def test_example_eighty_closed_and_made():
    contract = Contract(team=0, seat=0, value=80, trump=Suit.HEARTS, multiplier=2)

    result = score_round(contract, (97, 65), (5, 3), [(), ()], (0, 0))

    assert result.raw == (322, 0)
