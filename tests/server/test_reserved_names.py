"""Names that read as a bot, a guest or the system are nobody's (issue 27, item 7): in
any case, alphabet or look-alike, refused with ``reserved_name``; names that merely hold
those letters inside a longer word are anybody's."""

from __future__ import annotations

import httpx
import pytest
from tests.server.support import ServerProc

from kozyr.server.accounts.auth import check_name
from kozyr.server.accounts.names import reserved_word
from kozyr.server.transport.protocol import ProtocolError

# the issue's own examples
ISSUE = ["bot 5", "Bot_1", "бот 3", "guest 1a2b3c", "house", "system"]

REFUSED = [
    *ISSUE,
    "B0t 5",
    "\u0412\u041e\u0422",  # ВОТ, all Cyrillic
    "Gu\u0435st",  # Guеst with a Cyrillic е
    "BOT",
    "bot",
    "bot5",
    "b.o.t",
    "8ot-7",
    "Chess Bot",
    "guest1a2b3c",
    "GUEST_ab12",
    "Gue5t",
    "Гость 7",
    "ГОСТЬ",
    "h0use",
    "Casino",
    "казино",
    "SYSTEM 32",
    "sys.tem",
    "Система",
    "admin",
    "ADM1N",
    "Admin-2",
    "\u0430\u0434\u043c\u0438\u043d",  # админ
    "Administrator",
    "администратор",
    "moderator",
    "М0ДЕРАТОР",  # Cyrillic with a zero
    "kozyr",
    "K0ZYR official",
    "Козырь",
    "server",
    "Server-2",
    "сервер",
    "ｂｏｔ ５",  # full-width: NFKC first
]

ACCEPTED = [
    "Botvinnik",
    "Abbot",
    "Robot Fan",
    "Talbot 5",
    "Bots",
    "Housewife",
    "Systematic",
    "Adminah",
    "Guesthouse",
    "Olga",
    "Ольга_1",
    "Boris 2000",
]


@pytest.mark.parametrize("name", REFUSED)
def test_names_that_read_as_a_bot_a_guest_or_the_system_are_refused(name: str) -> None:
    assert reserved_word(name) is not None
    with pytest.raises(ProtocolError) as e:
        check_name(name)
    assert e.value.code == "reserved_name" and e.value.status == 400
    assert "bot" in e.value.message and "бота" in e.value.message_ru


@pytest.mark.parametrize("name", ACCEPTED)
def test_ordinary_names_are_accepted(name: str) -> None:
    assert reserved_word(name) is None
    assert check_name(name) == name


def test_the_word_found_is_the_one_read() -> None:
    assert reserved_word("B0t 5") == "bot"
    assert reserved_word("\u0412\u041e\u0422") == "bot"  # Cyrillic ВОТ
    assert reserved_word("Gu\u0435st") == "guest"
    assert reserved_word("бот 3") == "бот"
    assert reserved_word("ADM1N") == "admin"
    assert reserved_word("Chess Bot") == "bot"


def test_the_servers_own_names_stay_its_own() -> None:
    # what the server calls bots' seats and guests (lobby, seating, auth.guest) reads as
    # reserved, so no person can take it; the server makes those without check_name
    for own in ("bot 1", "bot 5", "guest-1a2b3c"):
        assert reserved_word(own) is not None
        with pytest.raises(ProtocolError):
            check_name(own)


def test_registration_rename_and_upgrade_refuse_them(server: ServerProc) -> None:
    password = "correct horse 1"
    with httpx.Client(base_url=server.base) as http:
        for name in ("bot 5", "Gu\u0435st", "B0t 5"):
            r = http.post("/api/register", json={"name": name, "password": password})
            assert r.status_code == 400, r.text
            body = r.json()
            assert body["code"] == "reserved_name" and body["message"] and body["message_ru"]
        assert http.post("/api/guest").status_code == 201
        r = http.post("/api/me/upgrade", json={"name": "system", "password": password})
        assert r.status_code == 400 and r.json()["code"] == "reserved_name"
        r = http.post("/api/me/upgrade", json={"name": "Botvinnik-x", "password": password})
        assert r.status_code == 200, r.text
        r = http.post("/api/me/name", json={"name": "Admin 1"})
        assert r.status_code == 400 and r.json()["code"] == "reserved_name"
