"""kozyr: Imperial and Emperor, two old Russian trick-taking card games."""

__version__ = "0.1.0"
