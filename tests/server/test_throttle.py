"""Login and account-creation limits (sliding windows), and argon2 off the event loop."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import httpx
import pytest
from argon2 import PasswordHasher
from tests.server.inprocess import inprocess_server

from kozyr.server.accounts import auth
from kozyr.server.accounts.throttle import SlidingWindow, Throttles, retry_header

PASSWORD = "correct horse 1"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_sliding_window_counts_the_last_window_only() -> None:
    clock = FakeClock()
    w = SlidingWindow(3, 60, clock)
    for t in (0, 10, 20):
        clock.now = 1000 + t
        assert w.hit("k") is None
    clock.now = 1030
    # the oldest counted hit (t=0) leaves the window at t=60
    assert w.hit("k") == pytest.approx(30.0)
    assert w.hit("other") is None
    clock.now = 1059.5
    assert w.hit("k") == pytest.approx(0.5)
    clock.now = 1060
    assert w.hit("k") is None  # t=0 is out; t=10, 20, 60 are in
    clock.now = 1065
    assert w.hit("k") == pytest.approx(5.0)  # t=10 leaves at 70


def test_refused_hits_do_not_extend_the_lockout() -> None:
    clock = FakeClock()
    w = SlidingWindow(1, 60, clock)
    assert w.hit("k") is None
    for t in range(1, 60):
        clock.now = 1000 + t
        assert w.hit("k") == pytest.approx(60 - t)
    clock.now = 1060
    assert w.hit("k") is None


def test_window_memory_is_bounded() -> None:
    w = SlidingWindow(1, 60, FakeClock(), max_keys=100)
    for i in range(1000):
        w.hit(f"name{i}")
    assert len(w._hits) == 100
    assert w.hit("name999") is not None  # the newest are the ones kept


def test_login_limit_is_per_address_and_per_name() -> None:
    clock = FakeClock()
    t = Throttles(2, 60, 5, 3600, clock)
    assert t.login("olga", "1.1.1.1") is None
    assert t.login("ivan", "1.1.1.1") is None
    assert t.login("boris", "1.1.1.1") == 60  # the address is at its limit, whatever name
    # a refused attempt was not counted against the other key
    assert t.login("boris", "4.4.4.4") is None


def test_puzzle_answers_are_limited_per_person_and_per_address() -> None:
    """Two answers per person a minute, twenty per address (ten times as many)."""
    clock = FakeClock()
    t = Throttles(2, 60, 5, 3600, clock, answer_limit=2)
    assert t.answer("user:1", "1.1.1.1") is None
    clock.now += 15
    assert t.answer("user:1", "2.2.2.2") is None
    assert t.answer("user:1", "3.3.3.3") == 45  # the person's first answer leaves at 60 s
    # 1.1.1.1 has one (t = 0); nine more people, two each: 19; one more: 20
    for i in range(2, 11):
        assert t.answer(f"user:{i}", "1.1.1.1") is None
        assert t.answer(f"user:{i}", "1.1.1.1") is None
    assert t.answer("user:11", "1.1.1.1") is None
    assert t.answer("user:12", "1.1.1.1") == 45  # the address's limit, a fresh person
    assert t.answer("user:12", "4.4.4.4") is None  # ...who was not counted there
    clock.now += 45  # t = 60 s: the first answer (t = 0) leaves both windows
    assert t.answer("user:1", "5.5.5.5") is None
    assert t.answer("user:13", "1.1.1.1") is None


def test_the_answer_limit_setting_has_a_range(monkeypatch: pytest.MonkeyPatch) -> None:
    from kozyr.server.runtime.config import Settings

    monkeypatch.setenv("KOZYR_PUZZLE_ANSWER_LIMIT", "7")
    assert Settings().puzzle_answer_limit == 7
    for bad in ("0", "-3", "2.5", "10001", "many"):
        monkeypatch.setenv("KOZYR_PUZZLE_ANSWER_LIMIT", bad)
        with pytest.raises(ValueError, match="KOZYR_PUZZLE_ANSWER_LIMIT must be"):
            Settings()


def test_a_strangers_guesses_do_not_lock_the_owner_out() -> None:
    # Issue 43, item 6: 10 wrong logins a minute for a name gave its owner 429 everywhere
    clock = FakeClock()
    t = Throttles(10, 60, 5, 3600, clock)
    for _ in range(10):
        assert t.login("olga", "203.0.113.66") is None
    assert t.login("olga", "203.0.113.66") == 60  # the stranger's address is held...
    assert t.login("olga", "198.51.100.1") is None  # ...and Olga at hers gets in


def test_a_guess_spread_over_many_addresses_meets_the_names_cap() -> None:
    clock = FakeClock()
    t = Throttles(2, 60, 5, 3600, clock)
    # 2 a minute per address, 2 x 10 = 20 a minute for the name over all of them
    for i in range(10):
        for _ in range(2):
            assert t.login("olga", f"10.0.0.{i}") is None
    assert t.login("olga", "10.0.1.1") == 60
    assert t.login("ivan", "10.0.1.1") is None  # the address itself was not held


def test_retry_after_is_whole_seconds_rounded_up() -> None:
    assert [retry_header(s) for s in (0.0, 0.2, 1.0, 59.01)] == ["1", "1", "1", "60"]


def test_eleventh_login_refused_then_free_after_the_window(tmp_path: Path) -> None:
    with inprocess_server(tmp_path) as srv:
        clock = FakeClock()
        srv.server.throttles.set_clock(clock)
        with httpx.Client(base_url=srv.base) as http:
            r = http.post("/api/register", json={"name": "Olga", "password": PASSWORD})
            assert r.status_code == 201
            for i in range(10):
                clock.now += 1  # t = 1 .. 10 s
                wrong = {"name": "olga", "password": f"wrong {i}"}
                assert http.post("/api/login", json=wrong).status_code == 401
            clock.now += 1  # t = 11 s
            r = http.post("/api/login", json={"name": "Olga", "password": PASSWORD})
            assert r.status_code == 429
            body = r.json()
            assert body["code"] == "too_many_attempts" and body["message"] and body["message_ru"]
            # the first attempt (t=1) leaves the window at t=61: 50 s from t=11
            assert r.headers["retry-after"] == "50"
            clock.now += 49.5
            assert (
                http.post("/api/login", json={"name": "Olga", "password": PASSWORD}).status_code
                == 429
            )
            clock.now += 0.5  # t = 61
            r = http.post("/api/login", json={"name": "Olga", "password": PASSWORD})
            assert r.status_code == 200 and r.json()["user"]["name"] == "Olga"


def test_accounts_asked_for_at_once_cannot_pass_the_cap_together(tmp_path: Path) -> None:
    """Eight guest accounts asked for at the same moment from one address with a cap of
    3: exactly three are made (the check and the count are one step)."""
    with inprocess_server(tmp_path, guest_limit=3) as srv:

        async def crowd() -> list[int]:
            async with httpx.AsyncClient(base_url=srv.base) as http:
                got = await asyncio.gather(*(http.post("/api/guest") for _ in range(8)))
            return [r.status_code for r in got]

        codes = asyncio.run(crowd())
        assert sorted(codes) == [201, 201, 201, 429, 429, 429, 429, 429]


def test_a_name_taken_gives_its_place_back(tmp_path: Path) -> None:
    with inprocess_server(tmp_path, account_limit=2) as srv:
        with httpx.Client(base_url=srv.base) as http:
            made = http.post("/api/register", json={"name": "Anna", "password": PASSWORD})
            assert made.status_code == 201
        with httpx.Client(base_url=srv.base) as http:
            taken = http.post("/api/register", json={"name": "Anna", "password": PASSWORD})
            assert taken.status_code == 409
            # the failed one did not count: one more account may still be made
            made = http.post("/api/register", json={"name": "Boris", "password": PASSWORD})
            assert made.status_code == 201
            again = http.post("/api/register", json={"name": "Vera", "password": PASSWORD})
            assert again.status_code == 429


def test_account_creation_is_capped_per_address(tmp_path: Path) -> None:
    """Accounts and guests each have their own window per address (guests a larger one:
    tests/server/test_guest_allowance.py); each is capped."""
    with inprocess_server(tmp_path, account_limit=3, guest_limit=2) as srv:
        clock = FakeClock()
        srv.server.throttles.set_clock(clock)
        with httpx.Client(base_url=srv.base) as http:
            assert http.post("/api/guest").status_code == 201
            # a refused registration is not an account made
            bad = http.post("/api/register", json={"name": "x", "password": PASSWORD})
            assert bad.status_code == 400
            for name in ("Anna", "Boris", "Gleb"):
                made = http.post("/api/register", json={"name": name, "password": PASSWORD})
                assert made.status_code == 201
            assert http.post("/api/guest").status_code == 201
            clock.now += 10
            for refused, code in (
                (http.post("/api/guest"), "too_many_guests"),
                (
                    http.post("/api/register", json={"name": "Vera", "password": PASSWORD}),
                    "too_many_accounts",
                ),
            ):
                assert refused.status_code == 429
                assert refused.json()["code"] == code
                assert refused.json()["message_ru"]
                assert refused.headers["retry-after"] == "3590"
            clock.now += 3590
            assert http.post("/api/guest").status_code == 201
            made = http.post("/api/register", json={"name": "Vera", "password": PASSWORD})
            assert made.status_code == 201


def test_argon2_runs_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[tuple[str, int]] = []

    class Spy(PasswordHasher):
        def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
            threads.append(("hash", threading.get_ident()))
            return super().hash(password, salt=salt)

        def verify(self, hash: str | bytes, password: str | bytes) -> bool:
            threads.append(("verify", threading.get_ident()))
            return super().verify(hash, password)

    monkeypatch.setattr(auth, "_hasher", Spy())
    monkeypatch.setattr(auth, "_DUMMY", [])  # so that the dummy hash is made here too
    with inprocess_server(tmp_path) as srv, httpx.Client(base_url=srv.base) as http:
        loop_thread = srv.thread.ident
        assert (
            http.post("/api/register", json={"name": "Olga", "password": PASSWORD}).status_code
            == 201
        )
        assert (
            http.post("/api/login", json={"name": "Olga", "password": PASSWORD}).status_code == 200
        )
        unknown = {"name": "nobody", "password": PASSWORD}
        assert http.post("/api/login", json=unknown).status_code == 401
    kinds = [k for k, _ in threads]
    # register: hash; login: verify; unknown name: the dummy hash, then verify against it
    assert kinds == ["hash", "verify", "hash", "verify"]
    assert all(ident != loop_thread for _, ident in threads)
