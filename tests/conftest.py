"""The test lanes.

``pytest --quick`` (``scripts/test --quick``) runs every test that needs no server
subprocess, browser, PostgreSQL or Redis: engines, rulings, records, bots, doctests, and
server logic run in-process. A test is in the slow lane (marker ``server``) when it asks
for a fixture that starts one of those, or when its module starts a server itself; a
quick run that reaches a server start anyway fails loudly, so a test cannot slip into the
quick lane unmarked and be silently cut short.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# Fixtures that start a ``kozyr serve`` subprocess, a browser, a cluster or Redis.
_SLOW_FIXTURES = frozenset(
    {"server", "fresh_server", "cluster", "redis_server", "browser", "finished"}
)
# What a module calls when it starts a server of its own, outside those fixtures.
_SLOW_CALLS = ("ServerProc(", "cluster(", "RedisServer(", "Node(", "fresh_postgres(")

_module_is_slow: dict[Path, bool] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--quick",
        action="store_true",
        help="only the tests that need no server subprocess, browser, PostgreSQL or Redis",
    )


def _starts_servers(path: Path) -> bool:
    if path not in _module_is_slow:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        _module_is_slow[path] = path.suffix == ".py" and any(c in text for c in _SLOW_CALLS)
    return _module_is_slow[path]


def _is_slow(item: pytest.Item) -> bool:
    if item.get_closest_marker("browser") or item.get_closest_marker("server"):
        return True
    if _SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "postgres" in callspec.params.values():
        return True
    return _starts_servers(Path(str(item.fspath)))


# The modules whose tests take longest (the full run's durations table), started first:
# in a parallel run the last module to start sets the end, so it should be a short one.
_LONGEST_FIRST = (
    "tests/web/test_browser.py",
    "tests/server/test_bets_concurrency.py",
    "tests/server/test_reviews.py",
    "tests/web/test_layout.py",
    "tests/server/test_fuzz.py",
    "tests/server/test_memory.py",
    "tests/web/test_table_sheet.py",
    "tests/web/test_summary_and_panels.py",
    "tests/web/test_review_browser.py",
    "tests/web/test_bets_told.py",
    "tests/web/test_tap_targets.py",
    "tests/server/test_cluster.py",
    "tests/server/test_cluster_harness.py",
    "tests/server/test_sockets.py",
    "tests/server/test_cluster_redis.py",
    "tests/server/test_games.py",
    "tests/server/test_reviews_resume.py",
    "tests/server/test_cluster_recovery.py",
    "tests/server/test_stakes_concurrency.py",
    "tests/server/test_stakes_conservation.py",
)


def _start_rank(item: pytest.Item) -> int:
    path = Path(str(item.fspath)).as_posix()
    for rank, module in enumerate(_LONGEST_FIRST):
        if path.endswith(module):
            return rank
    return len(_LONGEST_FIRST)


def _start_key(item: pytest.Item) -> tuple[int, int, int]:
    """The named long modules first; then the other modules that start servers (the page's
    before the server's: a browser's are the longer), and the quick ones last, to fill the
    run's tail (in collection order the page's modules came last and ran on alone)."""
    slow = _is_slow(item)
    page = "/tests/web/" in Path(str(item.fspath)).as_posix()
    return (_start_rank(item), 0 if slow else 1, 0 if page else 1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_start_key)  # stable: each module keeps its own order
    slow = [item for item in items if _is_slow(item)]
    for item in slow:
        item.add_marker(pytest.mark.server)
    if config.getoption("--quick"):
        slow_ids = {id(item) for item in slow}
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if id(item) not in slow_ids]


@pytest.fixture(autouse=True)
def _quick_lane_guard(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the quick lane, starting a server is a marking mistake: fail, never hang or skip."""
    if not request.config.getoption("--quick"):
        return
    from tests.server import cluster_support, support

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError(
            f"{request.node.nodeid} starts a server but is in the quick lane: "
            "mark it `server` (tests/conftest.py)"
        )

    monkeypatch.setattr(support.ServerProc, "start", refuse)
    monkeypatch.setattr(cluster_support.RedisServer, "start", refuse)
    monkeypatch.setattr(cluster_support.Node, "start", refuse)
