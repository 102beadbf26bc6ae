from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("guest/keep/", views.guest_keep, name="guest_keep"),
    path("profile/delete/", views.account_delete, name="delete"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
    path("friends/", views.friends, name="friends"),
    path("friends/invite/", views.friend_invite, name="friend_invite"),
    path("friends/<int:user_id>/request/", views.friend_request_send, name="friend_request_send"),
    path("friends/<int:user_id>/remove/", views.friendship_remove, name="friendship_remove"),
    path(
        "friends/requests/<int:pk>/accept/",
        views.friend_request_accept,
        name="friend_request_accept",
    ),
    path(
        "friends/requests/<int:pk>/decline/",
        views.friend_request_decline,
        name="friend_request_decline",
    ),
    path(
        "friends/requests/<int:pk>/cancel/",
        views.friend_request_cancel,
        name="friend_request_cancel",
    ),
]
