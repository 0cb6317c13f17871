"""``python -m kozyr`` runs the ``kozyr`` command."""

from kozyr.cli import app

app(prog_name="kozyr")
