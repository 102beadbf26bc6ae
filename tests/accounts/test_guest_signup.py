"""A guest keeps their games by signing up in the same browser; the waitlist keeps none."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.core import mail
from django.urls import reverse
from django.utils import translation

from accounts.guests import CLAIM_KEY
from accounts.models import User
from accounts.services import guest_convert, guest_create
from games.engine import Bid, Play
from games.models import Match, Room, RoomSeat, Round, RoundAction
from games.selectors import round_view
from games.services.table import round_apply_action
from games.tasks import bot_play_turn
from lobby.models import WaitlistEntry
from tests.factories import PASSWORD, InvitationFactory, signup_data

pytestmark = pytest.mark.django_db

SIGNUP = "/en/accounts/signup/"
OFFER = "Sign up to keep your games"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    """The table's tasks are not sent: these tests play the turns themselves."""
    monkeypatch.setattr(bot_play_turn, "apply_async", lambda *args, **kwargs: None)


def guest_plays_a_card(client) -> tuple[User, Room]:
    """Play now as a new guest, let the computers act until the guest's turn, and act once."""
    client.post(reverse("games:play_now"))
    guest = User.objects.get(pk=client.session[SESSION_KEY])
    room = Room.objects.get(owner=guest)
    round_ = Round.objects.get(match__room=room)
    while (view := round_view(round_)).state.to_act != 0:
        bot_play_turn(round_.pk, view.seq)
    legal = view.state.legal_actions()
    action = ([a for a in legal if isinstance(a, Bid | Play)] or legal)[0]
    round_apply_action(round_id=round_.pk, seat=0, action=action, actor=guest)
    return guest, room


@pytest.mark.usefixtures("open_signup")
def test_signing_up_after_guest_play_turns_the_guest_into_the_account(
    client, django_capture_on_commit_callbacks
):
    guest, room = guest_plays_a_card(client)

    left = client.post(reverse("accounts:guest_keep"))
    with django_capture_on_commit_callbacks(execute=True):
        signed = client.post(left["Location"], signup_data())

    assert left["Location"] == SIGNUP
    assert signed.status_code == 302
    account = User.objects.get(email="maria@example.com")
    assert account.pk == guest.pk
    assert (account.is_guest, account.display_name) == (False, "Maria")
    assert account.check_password(PASSWORD)
    assert User.objects.count() == 1
    assert Room.objects.get(pk=room.pk).owner_id == account.pk
    assert RoomSeat.objects.get(room=room, seat=0).user_id == account.pk
    assert RoundAction.objects.filter(actor=account, is_bot=False).exists()
    assert mail.outbox[0].to == ["maria@example.com"]
    assert CLAIM_KEY not in client.session


@pytest.mark.usefixtures("open_signup")
def test_the_new_account_finds_its_guest_games_after_logging_in(
    client, django_capture_on_commit_callbacks
):
    from allauth.account.models import EmailAddress

    _guest, room = guest_plays_a_card(client)
    client.post(reverse("accounts:guest_keep"))
    client.post(SIGNUP, signup_data())
    EmailAddress.objects.filter(email="maria@example.com").update(verified=True)

    client.post("/en/accounts/login/", {"login": "maria@example.com", "password": PASSWORD})
    lobby = client.get(reverse("lobby:rooms"))

    assert lobby.status_code == 200
    assert reverse("games:room", args=[room.pk]) in lobby.text


@pytest.mark.usefixtures("invite_only")
def test_an_invited_guest_signs_up_with_the_link_and_keeps_their_games(client):
    guest, room = guest_plays_a_card(client)
    invitation = InvitationFactory(email="maria@example.com")
    link = reverse("accounts:invitation", args=[invitation.token])

    refused = client.get(link)
    left = client.post(reverse("accounts:guest_keep"), {"next": link})
    welcome = client.get(left["Location"])
    signed = client.post(SIGNUP, signup_data())

    assert refused.status_code == 403
    assert welcome.status_code == 200
    assert signed.status_code == 302
    account = User.objects.get(email="maria@example.com")
    assert (account.pk, account.is_guest) == (guest.pk, False)
    assert Room.objects.get(pk=room.pk).owner_id == account.pk


@pytest.mark.usefixtures("open_signup")
def test_a_claim_on_a_guest_already_gone_signs_up_a_new_account(client):
    guest, _room = guest_plays_a_card(client)
    client.post(reverse("accounts:guest_keep"))
    guest.delete()

    client.post(SIGNUP, signup_data())

    account = User.objects.get(email="maria@example.com")
    assert account.pk != guest.pk
    assert not Room.objects.filter(owner=account).exists()


def test_a_guest_is_turned_into_one_account_only():
    guest = guest_create(language="en")
    first = User(email="one@example.com", display_name="One", password="x")
    second = User(email="two@example.com", display_name="Two", password="y")

    assert guest_convert(guest_id=guest.pk, account=first) == guest
    assert guest_convert(guest_id=guest.pk, account=second) is None
    assert User.objects.get(pk=guest.pk).email == "one@example.com"


@pytest.mark.usefixtures("invite_only")
def test_a_guest_on_the_waitlist_stays_a_guest(client):
    guest, room = guest_plays_a_card(client)

    joined = client.post(
        reverse("lobby:waitlist_join"), {"email": "maria@example.com", "language": "en"}
    )

    assert joined.status_code == 302
    assert WaitlistEntry.objects.filter(email="maria@example.com").exists()
    # Nothing moves: the games stay with the guest, who is deleted once quiet for a week.
    assert User.objects.get(pk=guest.pk).is_guest
    assert Room.objects.get(pk=room.pk).owner_id == guest.pk
    assert client.session[SESSION_KEY] == str(guest.pk)


def finish_the_match(room: Room) -> None:
    Match.objects.filter(room=room).update(status=Match.Status.FINISHED, winner=0)
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED)


@pytest.mark.usefixtures("open_signup")
def test_a_guest_whose_match_is_over_is_offered_to_sign_up_or_join_the_waitlist(client):
    _guest, room = guest_plays_a_card(client)
    finish_the_match(room)

    page = client.get(reverse("games:room", args=[room.pk]))

    assert OFFER in page.text
    assert f'href="{reverse("accounts:guest_keep")}"' in page.text
    assert "Join the waitlist" in page.text
    assert "Joining the waitlist keeps no game history." in page.text


@pytest.mark.usefixtures("invite_only")
def test_with_signup_by_invitation_the_offer_is_the_waitlist(client):
    _guest, room = guest_plays_a_card(client)
    finish_the_match(room)

    page = client.get(reverse("games:room", args=[room.pk]))
    keep = client.get(reverse("accounts:guest_keep"))

    assert OFFER not in page.text
    assert "Join the waitlist" in page.text
    assert "Sign up and keep my games" not in keep.text
    assert "Signing up is by invitation for now." in keep.text


@pytest.mark.usefixtures("open_signup")
def test_the_offer_waits_for_the_end_of_the_match(client):
    _guest, room = guest_plays_a_card(client)

    page = client.get(reverse("games:room", args=[room.pk]))

    assert OFFER not in page.text


@pytest.mark.usefixtures("open_signup")
def test_a_player_with_an_account_is_offered_nothing(player_client, player):
    player_client.post(reverse("games:play_now"))
    room = Room.objects.get(owner=player)
    finish_the_match(room)

    page = player_client.get(reverse("games:room", args=[room.pk]))

    assert page.status_code == 200
    assert OFFER not in page.text
    assert "Joining the waitlist keeps no game history." not in page.text
