"""Rooms: Play now, a room's seats, the live table, invite links, and its rounds' hand records."""

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.guests import guest_claimed, guest_login
from accounts.language import url_without_language
from accounts.models import User
from config.clientip import client_ip
from games.engine import round_to_record
from games.errors import GameError, message_for
from games.forms import PlayNowForm, RoomForm, RoomNameForm
from games.invite_links import room_link_remember
from games.models import Match, Room, RoomInvitation, Round
from games.rendering import render_message, render_table, round_replay, viewer_in
from games.selectors import (
    invitable_friends,
    is_member,
    room_for_newcomer,
    room_seats,
    round_state,
)
from games.services import guests
from games.services import rooms as services
from games.snapshots import SeatView, table_snapshot
from lobby.views import render_lobby


def _member_room(request: HttpRequest, room_id: int) -> Room:
    """Return the room if the user may see it; a stranger gets the same 404 as a missing room."""
    room = get_object_or_404(Room, pk=room_id)
    if not is_member(room, _user(request)):
        raise Http404
    return room


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


@require_http_methods(["GET", "POST"])
def play_now(request: HttpRequest) -> HttpResponse:
    """Seat the visitor at a table with three computers, its match started (POST).

    A visitor without an account becomes a guest bound to this browser; a guest who left to
    sign up and came back finds their guest again. GET shows the landing page's form.
    """
    if request.method != "POST":
        return redirect(f"{reverse('lobby:home')}#play-now")
    user = _user(request) if request.user.is_authenticated else guest_claimed(request)
    if (user is None or user.is_guest) and not settings.GUEST_PLAY:
        return render(request, "games/play_now.html", {"off": True}, status=404)
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        return render(request, "games/play_now.html", {"play_now_form": form}, status=400)
    try:
        seated = guests.play_now(
            user=user,
            ip=client_ip(request),
            language=get_language(),
            level=form.cleaned_data["level"],
            target=form.cleaned_data["target"],
        )
    except guests.GuestTablesLimitError:
        return render(request, "games/play_now.html", {"limited": True}, status=429)
    if request.user.pk != seated.player.pk:
        guest_login(request, seated.player)
    return redirect("games:room", room_id=seated.room.pk)


@login_required
@require_POST
def room_create(request: HttpRequest) -> HttpResponse:
    """Open a new room with the chosen settings."""
    form = RoomForm(request.POST)
    if not form.is_valid():
        return render_lobby(request, form, status=400)
    room = services.room_create(owner=_user(request), **form.cleaned_data)
    return redirect("games:room", room_id=room.pk)


@login_required
@require_GET
def room(request: HttpRequest, room_id: int) -> HttpResponse:
    """Show a room: its seats before the game, the live table once it started."""
    return _room_page(request, _member_room(request, room_id))


def _room_page(
    request: HttpRequest,
    room: Room,
    *,
    rename_form: RoomNameForm | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    snapshot = table_snapshot(room_id=room.pk)
    assert snapshot is not None
    viewer = viewer_in(snapshot, _user(request).pk)
    table = render_table(snapshot, viewer, language=get_language(), oob=False)
    # No language in the link: whoever opens it reads the invitation in their own.
    invite_url = request.build_absolute_uri(
        url_without_language(reverse("games:room_join", args=[room.invite_token]))
    )
    seating = room.status == Room.Status.OPEN and not room.matches.exists()
    is_owner = _is_owner(request, room)
    if rename_form is None and is_owner:
        rename_form = RoomNameForm(initial={"name": room.name}, placeholder=room.title)
    return render(
        request,
        "games/room.html",
        {
            "room": room,
            "table": table,
            "invite_url": invite_url,
            "is_owner": is_owner,
            "table_seated": viewer.seat is not None,
            "rename_form": rename_form,
            "error": error,
            "friends": invitable_friends(room, _user(request)) if seating else [],
        },
        status=status,
    )


@login_required
@require_POST
def room_rename(request: HttpRequest, room_id: int) -> HttpResponse:
    """Give the room a new name (its owner only)."""
    room = _member_room(request, room_id)
    if not _is_owner(request, room):
        return _room_page(request, room, error=message_for("not_owner"), status=403)
    form = RoomNameForm(request.POST, placeholder=room.title)
    if not form.is_valid():
        return _room_page(request, room, rename_form=form, status=400)
    try:
        services.room_rename(room_id=room.pk, user=_user(request), name=form.cleaned_data["name"])
    except GameError as error:
        return _room_page(request, room, rename_form=form, error=error.message, status=409)
    messages.success(request, str(_("The room is renamed.")))
    return redirect("games:room", room_id=room.pk)


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _is_owner(request: HttpRequest, room: Room) -> bool:
    return room.owner_id == request.user.pk


def _seat_action(
    request: HttpRequest, room_id: int, call: Callable[[], Any], success: str | None = None
) -> HttpResponse:
    """Run one room service; answer htmx with nothing (the socket redraws) or a message."""
    _member_room(request, room_id)
    try:
        call()
    except GameError as error:
        if _is_htmx(request):
            return HttpResponse(render_message(error.message, language=get_language()))
        messages.error(request, error.message)
        return redirect("games:room", room_id=room_id)
    if _is_htmx(request):
        return HttpResponse(status=204)
    if success:
        messages.success(request, success)
    return redirect("games:room", room_id=room_id)


@login_required
@require_POST
def room_seat_take(request: HttpRequest, room_id: int, seat: int) -> HttpResponse:
    """Sit in a free seat (moving from one's own)."""
    user = _user(request)
    return _seat_action(
        request, room_id, lambda: services.room_take_seat(room_id=room_id, user=user, seat=seat)
    )


@login_required
@require_POST
def room_seat_leave(request: HttpRequest, room_id: int) -> HttpResponse:
    """Leave one's seat before the game starts."""
    user = _user(request)
    return _seat_action(
        request, room_id, lambda: services.room_leave_seat(room_id=room_id, user=user)
    )


@login_required
@require_POST
def room_seat_bot(request: HttpRequest, room_id: int, seat: int) -> HttpResponse:
    """Put a computer player in an empty seat."""
    user = _user(request)
    return _seat_action(
        request,
        room_id,
        lambda: services.room_fill_seat_with_bot(room_id=room_id, user=user, seat=seat),
    )


@login_required
@require_POST
def room_seat_unbot(request: HttpRequest, room_id: int, seat: int) -> HttpResponse:
    """Take a computer player out of its seat."""
    user = _user(request)
    return _seat_action(
        request,
        room_id,
        lambda: services.room_remove_bot(room_id=room_id, user=user, seat=seat),
    )


@login_required
@require_POST
def room_start(request: HttpRequest, room_id: int) -> HttpResponse:
    """Start the game."""
    user = _user(request)
    return _seat_action(request, room_id, lambda: services.room_start(room_id=room_id, user=user))


@login_required
@require_POST
def room_rematch(request: HttpRequest, room_id: int) -> HttpResponse:
    """Play another game with the same seats."""
    user = _user(request)
    return _seat_action(
        request, room_id, lambda: services.match_rematch(room_id=room_id, user=user)
    )


@login_required
@require_POST
def room_invite_renew(request: HttpRequest, room_id: int) -> HttpResponse:
    """Replace the invite link; the old one stops working."""
    user = _user(request)
    return _seat_action(
        request,
        room_id,
        lambda: services.room_renew_invite(room_id=room_id, user=user),
        success=str(_("A new invite link was made; the old one no longer works.")),
    )


@login_required
@require_POST
def room_invite_friend(request: HttpRequest, room_id: int) -> HttpResponse:
    """Invite one of one's friends to the room."""
    room = _member_room(request, room_id)
    friend_id = request.POST.get("friend", "")
    friend = User.objects.filter(pk=int(friend_id)).first() if friend_id.isdigit() else None
    if friend is None:
        messages.error(request, str(_("That is not a move the table understands.")))
        return redirect("games:room", room_id=room.pk)
    try:
        services.room_invite_friend(room_id=room.pk, user=_user(request), friend=friend)
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, str(_("Invitation sent to %(name)s.") % {"name": friend}))
    return redirect("games:room", room_id=room.pk)


@login_required
def room_invitation(request: HttpRequest, room_id: int) -> HttpResponse:
    """Show a friend's invitation (GET) and take a seat with it (POST)."""
    user = _user(request)
    invitation = (
        RoomInvitation.objects.select_related("room").filter(room_id=room_id, user=user).first()
    )
    if invitation is None or invitation.room.status == Room.Status.CLOSED:
        return render(request, "games/join.html", {"invalid": True}, status=404)
    room = invitation.room
    if room.seats.filter(user=user).exists():
        return redirect("games:room", room_id=room.pk)
    if request.method == "POST":
        try:
            services.room_take_seat(room_id=room.pk, user=user)
        except GameError as error:
            return render(
                request, "games/join.html", {"room": room, "error": error.message}, status=409
            )
        return redirect("games:room", room_id=room.pk)
    full = not room.seats.filter(user__isnull=True, is_bot=False).exists()
    return render(request, "games/join.html", {"room": room, "full": full or room.matches.exists()})


@login_required
@require_POST
def room_close(request: HttpRequest, room_id: int) -> HttpResponse:
    """Close the room for good."""
    _member_room(request, room_id)
    try:
        services.room_close(room_id=room_id, user=_user(request))
    except GameError as error:
        messages.error(request, error.message)
        return redirect("games:room", room_id=room_id)
    return redirect("lobby:rooms")


@require_http_methods(["GET", "POST"])
def room_join(request: HttpRequest, token: str) -> HttpResponse:
    """Show an invitation (GET) and take a seat with it (POST).

    A visitor without an account is greeted on a page of its own, in their language, and may
    sign up from it even when sign-up is by invitation only (see games.invite_links).
    """
    room = Room.objects.select_related("owner").filter(invite_token=token).first()
    if room is None or room.status == Room.Status.CLOSED:
        return render(request, "games/join.html", {"invalid": True}, status=404)
    if not request.user.is_authenticated:
        return _join_as_newcomer(request, room)
    user = _user(request)
    if room.seats.filter(user=user).exists():
        return redirect("games:room", room_id=room.pk)
    if room.is_invite_expired:
        return render(request, "games/join.html", {"invalid": True}, status=410)
    if request.method == "POST":
        try:
            services.room_take_seat(room_id=room.pk, user=user, token=token)
        except GameError as error:
            return render(
                request, "games/join.html", {"room": room, "error": error.message}, status=409
            )
        return redirect("games:room", room_id=room.pk)
    full = not room.seats.filter(user__isnull=True, is_bot=False).exists()
    started = room.matches.exists()
    return render(request, "games/join.html", {"room": room, "full": full or started})


def _join_as_newcomer(request: HttpRequest, room: Room) -> HttpResponse:
    """Greet a visitor without an account, and hold the link for their sign-up if it may
    still seat them."""
    if request.method == "POST":
        return redirect_to_login(request.get_full_path())
    if room.is_invite_expired:
        return render(request, "games/join.html", {"invalid": True}, status=410)
    seats_newcomer = room_for_newcomer(room.invite_token) is not None
    if seats_newcomer:
        room_link_remember(request, room)
    context = {
        "room": room,
        "full": not seats_newcomer,
        "login_url": f"{reverse('account_login')}?{urlencode({'next': request.path})}",
    }
    return render(request, "games/join_newcomer.html", context)


def _ended_round(request: HttpRequest, room_id: int, number: int) -> Round:
    room = _member_room(request, room_id)
    match = Match.objects.filter(room=room).order_by("-created", "-pk").first()
    match_id = request.GET.get("match")
    if match_id and match_id.isdigit():
        match = Match.objects.filter(room=room, pk=int(match_id)).first()
    if match is None:
        raise Http404
    # The match and its room come along: both pages read them, the replay its room's name.
    rounds = Round.objects.select_related("match__room__owner")
    return get_object_or_404(rounds, match=match, number=number, status=Round.Status.FINISHED)


@login_required
@require_GET
def round_record(request: HttpRequest, room_id: int, number: int) -> HttpResponse:
    """Download a finished round as a hand record."""
    round_ = _ended_round(request, room_id, number)
    response = JsonResponse(round_to_record(round_state(round_)))
    filename = f"pilotta-room{room_id}-round{number}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def round_replay_page(request: HttpRequest, room_id: int, number: int) -> HttpResponse:
    """Replay a finished round step by step: the deal, the auction, each trick, the score.

    Every step is in the page and ``?step=N`` says which one shows, so the previous and next
    links work without JavaScript; static/js/replay.js steps without reloading.
    """
    round_ = _ended_round(request, room_id, number)
    room = round_.match.room
    seats = tuple(
        SeatView(
            seat=chair.seat,
            user_id=chair.user_id,
            name=str(chair.user.table_name) if chair.user is not None else None,
            is_bot=chair.is_bot,
            away=False,
        )
        for chair in room_seats(room)
    )
    viewer = next((chair.seat for chair in seats if chair.user_id == request.user.pk), None)
    replay = round_replay(round_state(round_), seats, viewer_seat=viewer)
    steps = replay["steps"]
    query = request.GET.copy()
    query.pop("trick", None)
    for step in steps:
        query["step"] = str(step["number"])
        step["href"] = f"?{query.urlencode()}"
    current = _replay_step(request, steps)
    return render(
        request,
        "games/replay.html",
        {
            "room": room,
            "round": round_,
            "replay": replay,
            "step": current,
            "previous": steps[current["number"] - 2] if current["number"] > 1 else None,
            "next": steps[current["number"]] if current["number"] < len(steps) else None,
        },
    )


def _replay_step(request: HttpRequest, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the step asked for by ``?step=N`` (or ``?trick=N``, as older links say); else
    the first."""
    step_text = request.GET.get("step", "")
    if step_text.isdigit() and 1 <= int(step_text) <= len(steps):
        return steps[int(step_text) - 1]
    trick_text = request.GET.get("trick", "")
    tricks = [step for step in steps if step["kind"] == "trick"]
    if trick_text.isdigit() and 1 <= int(trick_text) <= len(tricks):
        return tricks[int(trick_text) - 1]
    return steps[0]
