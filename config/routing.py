"""Websocket routes of every app."""

from lobby.routing import websocket_urlpatterns as lobby_routes

websocket_urlpatterns = [*lobby_routes]
