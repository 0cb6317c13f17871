"""Names that read as a bot, a guest or the system are nobody's (issue 27, item 7): in
any case, alphabet or look-alike, refused with ``reserved_name``; names that merely hold
those letters inside a longer word are anybody's."""

from __future__ import annotations

import re

import httpx
import pytest
from tests.server.support import ServerProc

from kozyr.server.accounts.auth import check_name
from kozyr.server.accounts.names import reserved_word
from kozyr.server.transport.protocol import ProtocolError
from kozyr.web import STATIC

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


# Issue 43, item 6: names that pass for a computer's seat, a seat or the reader himself,
# and the small capitals Unicode's confusables table knows (ʙ is U+0299, ᴏ U+1D0F, ᴛ
# U+1D1B)
LOOKALIKES = {
    "Computer 3": "Computer",
    "\u041a\u043e\u043c\u043f\u044c\u044e\u0442\u0435\u0440 3": "Компьютер",  # Компьютер 3
    "Seat 3": "seat",
    "You": "You",
    "\u0299ot 5": "bot",
    "\u0299\u1d0f\u1d1b": "bot",
    "\u0412\u044b": "Вы",  # Вы
    "\u041c\u0435\u0441\u0442\u043e 2": "место",  # Место 2
    "COMPUTER": "Computer",
    "c0mputer_12": "Computer",
    "Player 4": "Player",
    "y\u043eu 7": "You",  # a Cyrillic о
    "\u0405\u0435\u0430\u0442": "seat",  # Ѕеат: Cyrillic Ѕ е а т
}


@pytest.mark.parametrize("name", sorted(LOOKALIKES))
def test_names_that_pass_for_a_seats_label_or_a_small_capital_bot_are_refused(name: str) -> None:
    assert reserved_word(name) == LOOKALIKES[name]
    with pytest.raises(ProtocolError) as e:
        check_name(name)
    assert e.value.code == "reserved_name" and e.value.status == 400


# a label is refused only as the whole name (a number aside): these are people's names
@pytest.mark.parametrize(
    "name",
    ["Thank You", "Computer Fan", "Seatbelt", "Youssef", "Player One", "Вышка", "Местный"],
)
def test_a_label_inside_a_longer_name_is_anybodys(name: str) -> None:
    assert reserved_word(name) is None
    assert check_name(name) == name


def test_every_label_the_page_gives_a_seat_is_refused_with_a_number() -> None:
    # read from the page's own catalogue, so that a new wording there cannot slip by
    page = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    checked = 0
    for key in ("you", "seat_n", "bot_name", "computer"):
        found = re.search(rf"^\s*{key}: \[\"([^\"]+)\", \"([^\"]+)\"\]", page, re.M)
        assert found is not None, key
        for label in found.groups():
            for n in ("", "3", "12"):
                name = label.replace("{n}", n).strip() if "{n}" in label else f"{label} {n}"
                assert reserved_word(name) is not None, name
                checked += 1
    assert checked == 4 * 2 * 3
