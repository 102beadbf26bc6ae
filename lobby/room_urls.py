"""URLs of the rooms, the live table and the hand records."""

from django.urls import path

from lobby import rooms

urlpatterns = [
    path("play/", rooms.rooms, name="rooms"),
    path("play/new/", rooms.room_create, name="room_create"),
    path("join/<str:token>/", rooms.room_join, name="room_join"),
    path("rooms/<int:room_id>/", rooms.room, name="room"),
    path("rooms/<int:room_id>/seats/<int:seat>/take/", rooms.room_seat_take, name="room_seat_take"),
    path("rooms/<int:room_id>/seats/<int:seat>/bot/", rooms.room_seat_bot, name="room_seat_bot"),
    path(
        "rooms/<int:room_id>/seats/<int:seat>/remove-bot/",
        rooms.room_seat_unbot,
        name="room_seat_unbot",
    ),
    path("rooms/<int:room_id>/leave/", rooms.room_seat_leave, name="room_seat_leave"),
    path("rooms/<int:room_id>/start/", rooms.room_start, name="room_start"),
    path("rooms/<int:room_id>/rematch/", rooms.room_rematch, name="room_rematch"),
    path("rooms/<int:room_id>/invite/renew/", rooms.room_invite_renew, name="room_invite_renew"),
    path("rooms/<int:room_id>/close/", rooms.room_close, name="room_close"),
    path("rooms/<int:room_id>/invite/", rooms.room_invite_friend, name="room_invite_friend"),
    path("rooms/<int:room_id>/invitation/", rooms.room_invitation, name="room_invitation"),
    path(
        "rooms/<int:room_id>/rounds/<int:number>/record.json",
        rooms.round_record,
        name="round_record",
    ),
    path(
        "rooms/<int:room_id>/rounds/<int:number>/replay/",
        rooms.round_replay_page,
        name="round_replay",
    ),
]
