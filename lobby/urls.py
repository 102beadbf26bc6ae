from django.urls import path

from lobby import views

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
    path("play/", views.rooms, name="rooms"),
    path("rules/", views.rules, name="rules"),
    path("waitlist/", views.waitlist_join, name="waitlist_join"),
    path("waitlist/thanks/", views.waitlist_thanks, name="waitlist_thanks"),
    path("waitlist/confirm/<str:token>/", views.waitlist_confirm, name="waitlist_confirm"),
    path(
        "waitlist/unsubscribe/<str:token>/",
        views.waitlist_unsubscribe,
        name="waitlist_unsubscribe",
    ),
]
