"""The rating pages' strings without a browser: every plural family complete in both
languages, and the Russian forms of the counts the pages show."""

from __future__ import annotations

from tests.web.test_static import _messages

CATEGORIES = ("one", "two", "few", "many", "other")


def test_every_plural_family_has_its_fallback_and_the_russian_forms() -> None:
    messages = _messages()
    # The families tn() and ordinal() are called with (games_n_one, games_n_few, ...).
    for base in ("games_n", "won_n", "ord"):
        forms = {c for c in CATEGORIES if f"{base}_{c}" in messages}
        # plural() falls back to _other; a Russian count needs one, few and many.
        assert "other" in forms, base
        if base != "ord":
            assert {"one", "few", "many"} <= forms, base
    # 1 партия, 2 партии, 5 партий (and 21 партия: Intl.PluralRules says "one").
    assert messages["games_n_one"][1] == "{n} партия"
    assert messages["games_n_few"][1] == "{n} партии"
    assert messages["games_n_many"][1] == "{n} партий"
    assert messages["games_n_one"][0] == "{n} game" and messages["games_n_many"][0] == "{n} games"


def test_every_variant_and_error_of_the_contract_is_worded() -> None:
    messages = _messages()
    for variant in ("imperial_2p", "imperial_3p", "emperor_3p", "emperor_4p"):
        assert f"variant_{variant}" in messages
    for code in ("no_user", "bad_variant", "name_taken", "bad_password", "rated_needs_account"):
        en, ru = messages[f"err_{code}"]
        assert en and ru, code
