"""The live site on real processes: daphne servers, Celery workers and table sockets.

Tests and operator commands (``python -m games.soak``) start the same processes the same way,
so what a test proves is what the soak measures.
"""
