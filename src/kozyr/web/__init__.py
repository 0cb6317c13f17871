"""The web page for playing kozyr in a browser: static files in ``static/``, which the game
server serves by path (its replay routes are ``kozyr.server.routes.replays``)."""

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
