"""No seat ever receives another seat's hidden card, in any form or language."""

import random
import re

import pytest
from django.utils import translation

from games.bots import choose_action
from games.engine import Announce, Card, RoundState, Take
from games.models import Match, Round
from games.rendering import TableScreen, Viewer, announcement_label, render_table
from games.selectors import round_state
from games.services import rooms as room_services
from games.services import table
from games.snapshots import table_snapshot
from games.templatetags.cards import card_name
from tests.factories import seated_room

pytestmark = pytest.mark.django_db

ROUNDS = 20
LANGUAGES = ("en", "el", "fr")


def card_names(card: Card) -> set[str]:
    names = set()
    for language in LANGUAGES:
        with translation.override(language):
            names.add(card_name(card))
    return names


DECK = [Card.parse(f"{rank}{suit}") for rank in "789TJQKA" for suit in "CDHS"]
NAMES = {card: card_names(card) for card in DECK}
NAME_CARDS = {name: card for card, names in NAMES.items() for name in names}
NAME_PATTERN = re.compile("|".join(re.escape(n) for n in sorted(NAME_CARDS, key=len, reverse=True)))
CODE_PATTERN = re.compile(r"(?<![A-Za-z0-9])([789TJQKA][CDHS])(?![A-Za-z0-9])")


def hidden_cards(state: RoundState, seat: int) -> set[Card]:
    """Return the cards another seat holds that are neither played nor shown."""
    shown = {card for decl in state.shown(seat) for card in decl.cards}
    return set(state.hand(seat)) - shown


def named_cards(html: str) -> set[Card]:
    """Return every card ``html`` names: by code (text, data attribute, action) or by name."""
    cards = {Card.parse(code) for code in CODE_PATTERN.findall(html)}
    cards |= {NAME_CARDS[name] for name in NAME_PATTERN.findall(html)}
    return cards


def assert_no_hidden_card(html: str, state: RoundState, viewer_seat: int) -> int:
    """Check that ``html`` names no card another seat still hides; return how many were hidden."""
    named = named_cards(html)
    checked = 0
    for other in range(4):
        if other == viewer_seat:
            continue
        hidden = hidden_cards(state, other)
        assert not hidden & named, (viewer_seat, other, hidden & named)
        checked += len(hidden)
    return checked


def test_no_message_shows_a_hidden_card(players, queued):
    """Both kinds of message a seat receives: the whole table (on connect) and each change."""
    room = seated_room(players, target=401)
    room_services.room_start(room_id=room.pk, user=players[0])
    screens = {
        (seat, language): TableScreen(user_id=players[seat].pk, language=language)
        for seat in range(4)
        for language in LANGUAGES
    }
    rng = random.Random(20260501)
    ended = checked = changes_checked = announced_seen = step = 0
    while ended < ROUNDS:
        round_ = Round.objects.filter(match__room=room, status=Round.Status.PLAYING).last()
        if round_ is None:
            match = Match.objects.filter(room=room).latest("pk")
            assert match.status == Match.Status.FINISHED
            room_services.match_rematch(room_id=room.pk, user=players[0])
            continue
        state = round_state(round_)
        snapshot = table_snapshot(room_id=room.pk)
        assert snapshot is not None
        language = LANGUAGES[step % 3]
        for viewer_seat in range(4):
            viewer = Viewer(user_id=players[viewer_seat].pk, seat=viewer_seat, is_owner=False)
            html = render_table(snapshot, viewer, language=language, oob=True)
            assert set(state.hand(viewer_seat)) <= named_cards(html)  # the check can see cards
            checked += assert_no_hidden_card(html, state, viewer_seat)
            for other in range(4):
                if other != viewer_seat and state.announced(other) and not state.shown(other):
                    with translation.override(language):
                        labels = [announcement_label(a) for a in state.announcements(other)]
                    assert all(label in html for label in labels)
                    announced_seen += 1
            for seat_language in LANGUAGES:
                change = screens[viewer_seat, seat_language].changes(snapshot)
                changes_checked += assert_no_hidden_card(change, state, viewer_seat)
        seat = state.to_act
        observation = state.observation(seat)
        action = choose_action(observation, level="random", rng=rng)
        if Announce() in observation.legal_actions and rng.random() < 0.8:
            action = Announce()
        applied = table.round_apply_action(
            round_id=round_.pk, seat=seat, action=action, actor=players[seat]
        )
        ended += applied.round_ended
        step += 1

    assert checked > 10_000
    assert changes_checked > 10_000
    assert announced_seen > 0


def classic_hidden(state: RoundState, viewer_seat: int) -> set[Card]:
    """Return every card of the deck ``viewer_seat`` may not see: the others' hands, the stock
    and (two players) the unused cards; not its own hand, the turned card, the cards played or
    the declarations shown."""
    seen = set(state.hand(viewer_seat)) | {state.turned}
    seen |= {card for trick in state.tricks for card in trick.cards}
    if state.current_trick is not None:
        seen |= set(state.current_trick.cards)
    for seat in range(state.players):
        seen |= {card for decl in state.shown(seat) for card in decl.cards}
    return set(state.ruleset.deck) - seen


@pytest.mark.parametrize("count", [2, 3, 4])
def test_no_classic_message_shows_the_stock_or_another_seats_card(queued, count):
    """The classic game at every player count: the stock and the unused cards never leave the
    server, before or after the completion of the deal, in the whole table or its changes."""
    from tests.factories import make_user

    players = [make_user() for _ in range(count)]
    room = room_services.room_create(owner=players[0], variant="classic", players=count)
    for seat, player in enumerate(players[1:], start=1):
        room_services.room_take_seat(
            room_id=room.pk, user=player, seat=seat, token=room.invite_token
        )
    room_services.room_start(room_id=room.pk, user=players[0])
    screens = {
        (seat, language): TableScreen(user_id=players[seat].pk, language=language)
        for seat in range(count)
        for language in LANGUAGES
    }
    rng = random.Random(20260502 + count)
    played = checked = step = 0
    while played < 3:
        round_ = Round.objects.get(match__room=room, status=Round.Status.PLAYING)
        state = round_state(round_)
        snapshot = table_snapshot(room_id=room.pk)
        assert snapshot is not None
        language = LANGUAGES[step % 3]
        for viewer_seat in range(count):
            hidden = classic_hidden(state, viewer_seat)
            viewer = Viewer(user_id=players[viewer_seat].pk, seat=viewer_seat, is_owner=False)
            html = render_table(snapshot, viewer, language=language, oob=True)
            named = named_cards(html)
            assert set(state.hand(viewer_seat)) <= named  # the check can see cards
            if state.phase == "auction":
                assert state.turned in named  # face up for everyone while taking
            assert not hidden & named, (viewer_seat, hidden & named)
            for seat_language in LANGUAGES:
                change = screens[viewer_seat, seat_language].changes(snapshot)
                assert not hidden & named_cards(change), (viewer_seat, seat_language)
            checked += len(hidden)
        seat = state.to_act
        observation = state.observation(seat)
        action = choose_action(observation, level="random", rng=rng)
        if Take() in observation.legal_actions and rng.random() < 0.5:
            action = Take()
        applied = table.round_apply_action(
            round_id=round_.pk, seat=seat, action=action, actor=players[seat]
        )
        # Count the rounds played to the end, not those everyone passed.
        played += applied.round_ended and state.phase == "play"
        step += 1

    assert checked > 1000
