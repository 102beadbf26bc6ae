from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/table/<int:room_id>/", consumers.TableConsumer.as_asgi()),
]
