"""The computer players' levels by name (:data:`kozyr.bots.registry.LEVEL_NAMES`)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "bots.level.1": ("beginner", "новичок"),
    "bots.level.2": ("amateur", "любитель"),
    "bots.level.3": ("club player", "игрок клуба"),
    "bots.level.4": ("expert", "мастер спорта"),
    "bots.level.5": ("master", "гроссмейстер"),
}
