"""The post-game review (#15.3): a hand-made Imperial deal where one card throws away an
honour's 4 points is marked as the mistake with that loss; the review's rankers get the
reviewed seat's observation and nothing else; bad files and seats get clear errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kozyr.cards import parse_card, parse_cards
from kozyr.cli import app
from kozyr.games.base import Observation
from kozyr.games.imperial import ImperialDeal
from kozyr.games.spec import GAMES
from kozyr.records import to_record
from kozyr.review import review

# Trump spades (the turned K♠ is in nobody's hand; 7♠, 9♠, 10♠, A♠ lie unused in the stock,
# so no tombé is possible: I9). Seat 1 deals; seat 0 leads (I7).
OPPONENT = "KH QH AH 10H JD 9D 8D KC QC AC 9C QS"
ME = "JH 9H 8H 7H KD QD 10D JC 10C 8C JS 8S"
# Ten tricks: seat 0 takes 7, seat 1 takes 3 (J♥ over 10♥, then K♦ and Q♦ on the lead).
TEN_TRICKS = "KH 7H QH 8H AH 9H 10H JH KD 8D QD 9D 10D JD KC JC QC 10C AC 8C"


def honour_thrown_away(opponent: str = OPPONENT, last_lead: str = "9C") -> dict[str, Any]:
    """Trick 11: seat 0 leads Q♠ (an honour led: +4, I8). Seat 1 holds J♠ and 8♠ and must
    follow in spades. J♠ under the queen beats nothing and scores nothing (I8); kept, it
    takes the last trick over anything seat 0 can lead (no higher trump is left to him)
    and scores 4. Seat 1 plays J♠ anyway: the mistake. Worked out by hand, end of deal:
    - played J♠: seat 0 has 4 (point) + 4 (Q♠ held) + 4 (Q♠ led) + 4 (8 tricks > 6,
      I10) = 16; seat 1 has 4 (turned K♠, dealer) + 4 (J♠ held) = 8: -8 for seat 1;
    - 8♠ instead: seat 1 gets 4 more for J♠ trumping the last trick: 12 against 16: -4;
      the tricks change no bonus (seat 1 ends with 4 either way, seat 0 with 7 or 8).
    So the move lost exactly 4 points in every deal of the hidden cards."""
    g = GAMES["imperial"]
    deal = ImperialDeal((parse_cards(opponent).mask, parse_cards(ME).mask), turnup=parse_card("KS"))
    state = g.new_state(g.options_from_json({"players": 2}), deals=[deal], first_dealer=1)
    for text in [*TEN_TRICKS.split(), "QS", "JS", last_lead, "8S"]:
        state.play(text)
    return to_record(state)


def test_the_card_that_throws_an_honour_away_is_the_mistake_with_a_loss_of_4() -> None:
    result = review(honour_thrown_away(), seats=[1], worlds=12)
    marked = [d for d in result.decisions if d.verdict]
    assert len(marked) == 1
    (d,) = marked
    assert (d.index, d.seat, d.played, d.best) == (21, 1, "JS", "8S")
    assert d.played_value == pytest.approx(-8.0)
    assert d.best_value == pytest.approx(-4.0)
    assert d.loss == pytest.approx(4.0) and d.verdict == "mistake"
    (summary,) = result.summaries
    assert summary.seat == 1 and summary.mistakes == 1 and summary.deals == 1


def test_a_game_lost_whatever_the_move_still_marks_the_honour_thrown_away() -> None:
    """The same trick 11, but seat 0 comes to it with 20 points (not 12) and the game is to
    one imperial: his 4 for more than six tricks at the end (I10) make 24, an imperial, and
    win the game (I12) whatever seat 1 plays. The game counts 24 for the winner; each card
    also counts the points scored from it on, worked out by hand:
    - J♠: seat 0 scores 4 (tricks), seat 1 nothing: -24 - 4 = -28;
    - 8♠: seat 1 scores 4 (J♠ heading the last trick), seat 0 4 (tricks): -24 + 0 = -24.
    So J♠ still loses 4, a mistake, where a flat -24 for every card would mark nothing."""
    from dataclasses import replace

    from kozyr.bots.imperial.review import rank_in
    from kozyr.games.imperial import ImperialOptions, ImperialState

    record = honour_thrown_away()
    state = GAMES["imperial"].new_state(
        GAMES["imperial"].options_from_json({"players": 2}),
        deals=[
            ImperialDeal(
                (parse_cards(OPPONENT).mask, parse_cards(ME).mask), turnup=parse_card("KS")
            )
        ],
        first_dealer=1,
    )
    for text in record["actions"][:21]:
        state.play(text)
    assert state.to_act == 1
    obs = state.observation(1)
    assert obs.scores == ((0, 12), (0, 8))  # as the first test's hand count has it
    obs = replace(obs, options=ImperialOptions(players=2, target=1), scores=((0, 20), (0, 8)))
    world = ImperialState.from_observation(obs, [state.hands[0], state.hands[1]])
    ranked = {
        r.action: r.value for r in rank_in(world.legal_actions(), 1, lambda _: world, 1, 30, 0)
    }
    assert ranked == {parse_card("JS"): -28.0, parse_card("8S"): -24.0}


def test_the_review_sees_the_seat_s_observation_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kozyr.bots.imperial.review as imperial_review

    given: list[Any] = []
    real = imperial_review.rank

    def spy(obs: Observation, worlds: int, seconds: float, seed: int) -> Any:
        given.append(obs)
        return real(obs, worlds, seconds, seed)

    monkeypatch.setattr(imperial_review, "rank", spy)
    one = review(honour_thrown_away(), seats=[1], worlds=6)
    assert given and all(type(o).__name__ == "ImperialObservation" for o in given)
    assert all(o.seat == 1 for o in given)
    # The same game with seat 0 holding 7♣ where it held 9♣ (9♣ now lies in the unused
    # stock). Seat 1 never sees either card before trick 12, and the point declared is
    # still hearts: a review that read hidden cards would value some decision otherwise.
    other = review(
        honour_thrown_away(OPPONENT.replace("9C", "7C"), last_lead="7C"), seats=[1], worlds=6
    )
    assert [d.to_json() for d in one.decisions] == [d.to_json() for d in other.decisions]


def test_an_emperor_review_values_swaps_and_cards_from_observations() -> None:
    g = GAMES["emperor"]
    state = g.new_state(g.options_from_json({"players": 4, "rounds": 2}), seed=11)
    while not state.over:
        state.apply(state.legal_actions()[-1])
    result = review(to_record(state), worlds=2)
    assert result.unit == ("tricks", "взяток")
    assert len(result.decisions) > 20 and all(d.loss >= 0 for d in result.decisions)
    # Round 2 (E7, E9): the exchange and the naming of trump are decisions like cards.
    # (Always taking the last legal action, the players pass and the King names no trump.)
    played = {d.played for d in result.decisions}
    assert {"pass", "trump NT"} <= played


def test_review_command_prints_the_mistake_and_refuses_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(honour_thrown_away()))
    runner = CliRunner()
    out = runner.invoke(app, ["review", str(path), "--level", "1", "--seat", "2", "--lang", "ru"])
    assert out.exit_code == 0, out.output
    assert "В♠" in out.output and "ошибка" in out.output
    # the loss of 4 points (worked out above) with a decimal comma, as Russian writes it
    assert "│ 4,0 " in out.output, out.output
    assert re.search(r"точность \d+,\d%.*очков:\s+\d+,\d \(\d+,\d\d за сдачу\)", out.output, re.S)
    english = runner.invoke(app, ["review", str(path), "--level", "1", "--seat", "2"])
    assert "│ 4.0 " in english.output, english.output
    assert re.search(r"accuracy \d+\.\d%.*\d+\.\d\s+points\s+lost", english.output, re.S)
    out = runner.invoke(app, ["review", str(path), "--level", "1", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["format"] == "kozyr-review/1" and data["unit"] == "points"
    assert [d["seat"] for d in data["summaries"]] == [0, 1]
    out = runner.invoke(app, ["review", str(path), "--seat", "3"])
    assert out.exit_code == 2 and "--seat 3: the game has seats 1 to 2" in out.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1}')
    out = runner.invoke(app, ["review", str(bad)])
    assert out.exit_code == 2 and "format: expected 'kozyr-record/1'" in out.output
    out = runner.invoke(app, ["review", str(tmp_path / "missing.json")])
    assert out.exit_code == 2


def test_review_command_names_the_players_and_shows_hindsight_when_asked(tmp_path: Path) -> None:
    """The players' names the record keeps head the summaries and mark each row's seat;
    ``--hindsight`` adds the oracle's card (trick 11 of the hand-made deal: 8♠, not the
    J♠ played, see test_hindsight_is_what_the_oracle_seeing_every_card_plays)."""
    record = honour_thrown_away()
    record["players"] = ["Маша", "Петя"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, ensure_ascii=False))
    runner = CliRunner()
    args = ["review", str(path), "--level", "1", "--seat", "2", "--lang", "ru"]
    out = runner.invoke(app, [*args, "--hindsight"], env={"COLUMNS": "120"})
    assert out.exit_code == 0, out.output
    assert re.search(r"^Петя \(место 2\): решений \d+", out.output, re.M), out.output
    assert "Оракул (задним числом)" in out.output
    (row,) = [line for line in out.output.splitlines() if line.startswith("│ 22 ")]
    cells = [c.strip() for c in row.strip("│").split("│")]
    assert cells[2] == "2 Петя" and cells[3] == "В♠" and cells[-1] == "8♠", cells
    plain = runner.invoke(app, args, env={"COLUMNS": "120"})
    assert "Оракул" not in plain.output and "Петя (место 2)" in plain.output
    del record["players"]
    path.write_text(json.dumps(record))
    unnamed = runner.invoke(app, args, env={"COLUMNS": "120"})
    assert re.search(r"^Место 2: решений", unnamed.output, re.M), unnamed.output


def test_hindsight_is_what_the_oracle_seeing_every_card_plays() -> None:
    """Trick 11 of the hand-made deal: keeping J♠ for the last trick is better in every
    deal of the hidden cards (see ``honour_thrown_away``), so also in the true one."""
    plain = review(honour_thrown_away(), seats=[1], worlds=6)
    assert all(d.hindsight is None and "hindsight" not in d.to_json() for d in plain.decisions)
    result = review(honour_thrown_away(), seats=[1], worlds=6, hindsight=True)
    (d,) = [d for d in result.decisions if d.index == 21]
    assert (d.played, d.hindsight, d.to_json()["hindsight"]) == ("JS", "8S", "8S")
    # the values are still the seat's own: the same as without hindsight
    assert [(d.played_value, d.best_value) for d in result.decisions] == [
        (d.played_value, d.best_value) for d in plain.decisions
    ]


def test_emperor_hindsight_is_a_legal_action_of_every_decision() -> None:
    g = GAMES["emperor"]
    record_state = g.new_state(g.options_from_json({"players": 3, "rounds": 2}), seed=5)
    while not record_state.over:
        record_state.apply(record_state.legal_actions()[0])
    record = to_record(record_state)
    result = review(record, worlds=2, hindsight=True)
    state = g.new_state(g.options_from_json({"players": 3, "rounds": 2}), seed=5)
    at = {d.index: d for d in result.decisions}
    assert at
    for i, text in enumerate(record["actions"]):
        if i in at:
            legal = {state.action_text(a) for a in state.legal_actions()}
            assert at[i].hindsight in legal
        state.play(text)
