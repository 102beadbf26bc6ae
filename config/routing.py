"""Websocket routes of every app."""

from games.routing import websocket_urlpatterns as table_routes
from lobby.routing import websocket_urlpatterns as lobby_routes

websocket_urlpatterns = [*lobby_routes, *table_routes]
