"""URLs of the rooms, the live table and the hand records."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("play/now/", views.play_now, name="play_now"),
    path("play/new/", views.room_create, name="room_create"),
    path("join/<str:token>/", views.room_join, name="room_join"),
    path("rooms/<int:room_id>/", views.room, name="room"),
    path("rooms/<int:room_id>/name/", views.room_rename, name="room_rename"),
    path("rooms/<int:room_id>/seats/<int:seat>/take/", views.room_seat_take, name="room_seat_take"),
    path("rooms/<int:room_id>/seats/<int:seat>/bot/", views.room_seat_bot, name="room_seat_bot"),
    path(
        "rooms/<int:room_id>/seats/<int:seat>/remove-bot/",
        views.room_seat_unbot,
        name="room_seat_unbot",
    ),
    path("rooms/<int:room_id>/leave/", views.room_seat_leave, name="room_seat_leave"),
    path("rooms/<int:room_id>/start/", views.room_start, name="room_start"),
    path("rooms/<int:room_id>/rematch/", views.room_rematch, name="room_rematch"),
    path("rooms/<int:room_id>/invite/renew/", views.room_invite_renew, name="room_invite_renew"),
    path("rooms/<int:room_id>/close/", views.room_close, name="room_close"),
    path("rooms/<int:room_id>/invite/", views.room_invite_friend, name="room_invite_friend"),
    path("rooms/<int:room_id>/invitation/", views.room_invitation, name="room_invitation"),
    path(
        "rooms/<int:room_id>/rounds/<int:number>/record.json",
        views.round_record,
        name="round_record",
    ),
    path(
        "rooms/<int:room_id>/rounds/<int:number>/replay/",
        views.round_replay_page,
        name="round_replay",
    ),
]
