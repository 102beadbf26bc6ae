"""Writes of the rooms and the live table, by subject: ``rooms``, ``table`` and ``presence``."""
