"""Untrusted JSON: nesting depth is refused before the parser can recurse (#17.1)."""

import pytest

from kozyr.server.transport.jsonsafe import MAX_DEPTH, BadJson, json_depth, parse_json


def test_depth_counts_brackets_outside_strings_only() -> None:
    # [ {  "[" } ] -> depth 2; the bracket in the string does not count
    assert json_depth('[{"k": "[[[["}]') == 2
    # an escaped quote does not end the string: the brackets after it are still inside
    assert json_depth(r'["a\"[[[", 1]') == 1


def test_five_thousand_levels_are_refused_not_crashed() -> None:
    with pytest.raises(BadJson, match="nested more than 32"):
        parse_json("[" * 5000 + "]" * 5000)


def test_the_limit_itself_is_allowed() -> None:
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(BadJson):
        parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_bad_utf8_and_bad_json_name_the_problem() -> None:
    with pytest.raises(BadJson, match="not UTF-8 text at byte 1"):
        parse_json(b"[\xff]")
    with pytest.raises(BadJson, match="not JSON"):
        parse_json("{'single': 'quotes'}")
