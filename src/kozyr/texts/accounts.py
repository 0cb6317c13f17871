"""Accounts on the server (:mod:`kozyr.server.accounts.auth`,
:mod:`kozyr.server.account_changes`): why a name or a password is refused, where the
code's own message (:mod:`kozyr.texts.protocol`) would say too little."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # bad_name, worded by what is wrong with the name
    "accounts.name.guest_prefix": (
        "Names starting with guest- are for guests.",
        "Имена, начинающиеся с guest-, только для гостей.",
    ),
    "accounts.name.deleted": (
        "That name is reserved: deleted accounts show as it.",
        "Это имя занято под удалённые учётные записи.",
    ),
    "accounts.name.mixed_scripts": (
        "A name may not mix alphabets (such as Latin and Cyrillic letters).",
        "В имени нельзя смешивать алфавиты (например, латиницу и кириллицу).",
    ),
    # bad_password when the account's own password is asked for again (403)
    "accounts.wrong_password": ("The password is wrong.", "Неверный пароль."),
}
