"""The server process itself: its settings, metrics, garbage-collector tuning, clean stopping,
and the notice bus between its parts (and, with Redis, between processes).
"""
