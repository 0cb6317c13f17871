"""kozyr: Imperial and Emperor, two old Russian trick-taking card games."""

from kozyr.core import use_source_if_stale

__version__ = "0.1.0"

# Before any engine module is imported: the compiled core only while it is current.
use_source_if_stale()
