"""Computer players. A bot sees an Observation and the legal actions, never a State."""

from kozyr.bots.base import Bot
from kozyr.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
