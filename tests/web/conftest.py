"""Browser tests (``pytest -m browser``): a real server and Debian's Chromium."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives the web page in headless Chromium against a real server"
    )
