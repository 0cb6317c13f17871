"""Fair dealing (#9): the keyed HMAC-SHA-256 stream, the unbiased shuffle, commitments,
`kozyr verify`, and old records dealt by the Mersenne Twister still replaying."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kozyr.cards import DECK_32, cards_in
from kozyr.cli import app
from kozyr.games import dealing
from kozyr.games.base import GameError
from kozyr.games.dealing import LEGACY, SECURE, KeyedStream, commitment, seed_hex
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.emperor.deal import seeded_deal as emperor_deal
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.games.imperial.deal import seeded_deal as imperial_deal
from kozyr.records import load, replay, to_record, verify

DATA = Path(__file__).parent / "data"
runner = CliRunner()


def reference_shuffle(cards: list[int], seed: int, domain: str) -> list[int]:
    """The scheme as docs/fairness.md states it, written out independently: HMAC-SHA-256
    blocks keyed by the 32-byte seed over "<domain>/<block>", 32-bit big-endian words,
    Fisher-Yates from the top, each index drawn by rejection below a multiple of n."""
    key = seed.to_bytes(32, "big")
    words: list[int] = []
    for block in itertools.count():
        digest = hmac.new(key, f"{domain}/{block}".encode(), hashlib.sha256).digest()
        words += [int.from_bytes(digest[k : k + 4], "big") for k in range(0, 32, 4)]
        if len(words) > 400:
            break
    out, it = list(cards), iter(words)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            w = next(it)
            if w < 2**32 - 2**32 % n:
                break
        j = w % n
        out[i], out[j] = out[j], out[i]
    return out


def test_the_shuffle_is_the_documented_hmac_fisher_yates() -> None:
    deck = list(cards_in(DECK_32))
    for seed in (0, 7, 2**256 - 1, 0x1234_5678_9ABC_DEF0 << 100):
        got = list(deck)
        dealing.shuffle(got, "imperial", seed, "deal/3", SECURE)
        assert got == reference_shuffle(deck, seed, "kozyr/imperial/deal/3")


def test_rejection_sampling_redraws_the_biased_top_words() -> None:
    # n = 3: 2**32 = 3 * 1431655765 + 1, so the one word 2**32 - 1 would favour 0 and is
    # drawn again; the next word, 5, gives 5 mod 3 = 2.
    stream = KeyedStream(1, "test")
    stream._words = [5, 2**32 - 1]  # popped from the end
    assert stream.below(3) == 2
    # n = 2**32 has no bias: every word is taken as it is
    stream._words = [2**32 - 1]
    assert stream.below(2**32) == 2**32 - 1


def test_every_order_of_four_cards_is_equally_likely() -> None:
    # 24 orders, 12,000 shuffles: 500 expected each. The chi-square statistic with 23
    # degrees of freedom exceeds 60 with probability about 3e-5.
    counts: Counter[tuple[int, ...]] = Counter()
    for seed in range(12_000):
        cards = [0, 1, 2, 3]
        dealing.shuffle(cards, "test", seed, "deal/0", SECURE)
        counts[tuple(cards)] += 1
    assert len(counts) == 24
    chi2 = sum((c - 500) ** 2 / 500 for c in counts.values())
    assert chi2 < 60


def test_each_deal_and_each_game_has_its_own_stream() -> None:
    a = imperial_deal(2, 99, 0, 0)
    assert imperial_deal(2, 99, 1, 0) != a  # another deal of the same game
    assert imperial_deal(2, 98, 0, 0) != a  # another seed
    assert imperial_deal(2, 99, 0, 0) == a  # and the same one again (B2)
    e = emperor_deal(99, 0, 4)
    assert e.hands != emperor_deal(99, 1, 4).hands


def test_commitment_is_sha256_of_the_32_seed_bytes() -> None:
    seed = 0xABCDEF
    assert commitment(seed) == hashlib.sha256(bytes(29) + b"\xab\xcd\xef").hexdigest()
    assert seed_hex(seed) == "0" * 58 + "abcdef"


@pytest.mark.parametrize("seed", [-1, 2**256, True])
def test_seeds_outside_256_bits_are_refused(seed: int) -> None:
    with pytest.raises(GameError, match="seed"):
        ImperialState.new(ImperialOptions(), seed=seed)
    with pytest.raises(GameError, match="seed"):
        EmperorState.new(EmperorOptions(), seed=seed)


def test_the_legacy_scheme_is_the_old_mersenne_twister() -> None:
    # what the engine did before #9: random.Random("kozyr:<game>:<seed>:<index>")
    cards = list(cards_in(DECK_32))
    random.Random("kozyr:imperial:5:2").shuffle(cards)
    deal = imperial_deal(2, 5, 2, 1, LEGACY)
    # dealt one at a time from the left of the dealer (seat 1): seat 0 gets cards 0, 2, ...
    assert deal.hands[0] == sum(1 << c for c in cards[0:24:2])
    assert deal.turnup == cards[24]


@pytest.mark.parametrize("game", ["imperial", "emperor"])
def test_old_records_replay_and_write_back_identically(game: str) -> None:
    data = load(DATA / f"legacy-{game}.json")
    assert "dealing" not in data and isinstance(data["seed"], int)
    state = replay(data)
    assert state.dealing == LEGACY
    assert to_record(state) == data
    verdict = verify(data)
    # the deals are the old seed's, but nothing was committed before the game
    assert verdict["deals_ok"] == verdict["deals"] == len(data["deals"])
    assert verdict["ok"] is False and verdict["commitment_ok"] is None
    assert "before commitments existed" in verdict["problems"][0]


def finished_record(game: str, seed: int) -> dict[str, object]:
    state: ImperialState | EmperorState
    if game == "imperial":
        state = ImperialState.new(ImperialOptions(players=3, target=2), seed=seed)
    else:
        state = EmperorState.new(EmperorOptions(players=3, rounds=2), seed=seed)
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    return to_record(state)


@pytest.mark.parametrize("game", ["imperial", "emperor"])
def test_an_honest_record_verifies(game: str) -> None:
    seed = 0x5EED << 200
    record = finished_record(game, seed)
    assert record["dealing"] == SECURE
    assert record["commitment"] == commitment(seed)
    assert record["seed"] == seed_hex(seed)
    verdict = verify(record)
    assert verdict == {
        "ok": True,
        "dealing": SECURE,
        "commitment": commitment(seed),
        "commitment_ok": True,
        "deals": len(record["deals"]),  # type: ignore[arg-type]
        "deals_ok": len(record["deals"]),  # type: ignore[arg-type]
        "problems": [],
    }


def test_one_card_moved_is_refused(tmp_path: Path) -> None:
    record = finished_record("imperial", 77)
    hands = record["deals"][0]["hands"]  # type: ignore[index]
    moved = hands[0].pop()
    hands[1].append(moved)  # seat 1 now has 13 cards... refused by the deal check
    verdict = verify(record)
    assert not verdict["ok"]
    assert "cannot be read" in verdict["problems"][0]
    # A swap keeps the hand sizes: the deal itself is valid, but not the seed's.
    record = finished_record("imperial", 77)
    hands = record["deals"][0]["hands"]  # type: ignore[index]
    a, b = hands[0][0], hands[1][0]  # seat 0's card a and seat 1's card b trade places
    hands[0][0], hands[1][0] = b, a
    verdict = verify(record)
    assert not verdict["ok"] and verdict["commitment_ok"] is True
    assert f"deal 1: seat 0 holds {b} where the seed deals {a}" in verdict["problems"]
    assert f"deal 1: seat 1 holds {a} where the seed deals {b}" in verdict["problems"]
    path = tmp_path / "swapped.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["verify", str(path), "--lang", "en"])
    assert result.exit_code == 1
    assert "NOT verified" in result.output and f"seat 0 holds {b}" in result.output


def test_a_seed_that_does_not_match_the_commitment_is_refused() -> None:
    record = finished_record("emperor", 1234)
    record["seed"] = seed_hex(1235)
    verdict = verify(record)
    assert verdict["commitment_ok"] is False
    assert not verdict["ok"]
    assert "does not match the commitment" in verdict["problems"][0]


def test_a_record_without_its_seed_cannot_be_verified() -> None:
    record = finished_record("imperial", 5)
    record["seed"] = None
    verdict = verify(record)
    assert not verdict["ok"]
    assert "does not reveal the seed" in verdict["problems"][0]


def test_verify_command_says_fair_in_russian(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record("emperor", 42)))
    result = runner.invoke(app, ["verify", str(path), "--lang", "ru"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Честно: зерно совпадает с обязательством sha256 ")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert runner.invoke(app, ["verify", str(bad)]).exit_code == 2


def test_a_typed_seed_is_labelled_not_secret(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["play", "imperial", "--seed", "7", "--records", str(tmp_path), "--lang", "en"],
        input="quit\n",
    )
    assert "Seed 7 was given: it is not secret" in result.output
    (path,) = tmp_path.glob("*.json")
    record = json.loads(path.read_text())
    assert record["seed_secret"] is False and record["seed"] == seed_hex(7)


@pytest.mark.parametrize("seed", [0, 1, 0xABCDEF, 2**256 - 1])
def test_the_stream_is_hmac_sha256_of_each_block(seed: int) -> None:
    """The shuffle's words, written out HMAC (RFC 2104) for speed, are the standard
    library's HMAC-SHA-256 of ``domain`` + block number, block after block."""
    from kozyr.games.dealing import _words

    key = seed.to_bytes(32, "big")
    domain = "kozyr/emperor/deal/0/"
    want = b"".join(hmac.digest(key, f"{domain}{b}".encode(), "sha256") for b in (2, 3, 4))
    assert _words(key, domain, 2, 5) == [
        int.from_bytes(want[i : i + 4], "big") for i in range(0, len(want), 4)
    ]
