"""The web page for playing kozyr in a browser: static files in ``static/`` (served by the
game server) and the few HTTP routes the page needs beyond the protocol (``routes``)."""

from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
