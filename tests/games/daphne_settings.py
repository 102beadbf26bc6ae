"""The site's settings for a test daphne process, with the channel layer's read timeout raised.

redis-py 8 times a read out after 5 s by default, exactly as long as channels_redis's blocking
pop waits for a message, so an idle socket's consumer can die with 1011 (internal error) before
the frames under test arrive. Reads here may wait longer than the pop.
"""

from config.settings import *  # noqa: F403
from config.settings import REDIS_URL

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15}]},
    }
}
