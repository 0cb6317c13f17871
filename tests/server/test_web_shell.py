"""The page's service worker as the server writes it (kozyr.server.routes.shell): the
shell it keeps and a version that changes with any of the page's files, so that a new
release replaces what phones kept."""

from __future__ import annotations

import json
import re
from pathlib import Path

from kozyr.server.app import WEB_STATIC
from kozyr.server.routes.shell import service_worker, shell_files

WORKER = 'const VERSION = "__KOZYR_VERSION__";\nconst SHELL = ["__KOZYR_SHELL__"];\n'


def _page(root: Path) -> Path:
    (root / "js").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html>")
    (root / "js" / "app.js").write_text("start();")
    (root / "notes.txt").write_text("not the page's")
    (root / "sw.js").write_text(WORKER)
    return root


def _written(text: str) -> tuple[str, list[str]]:
    version = re.search(r'const VERSION = "([^"]*)";', text)
    shell = re.search(r"const SHELL = (\[.*\]);", text)
    assert version and shell, text
    return version.group(1), json.loads(shell.group(1))


def test_the_worker_keeps_the_pages_files_and_not_itself(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert shell_files(page) == ["/index.html", "/js/app.js"]
    version, shell = _written(service_worker(page))
    assert shell == ["/index.html", "/js/app.js"]
    assert re.fullmatch("[0-9a-f]{16}", version)


def test_a_changed_file_makes_a_new_version(tmp_path: Path) -> None:
    page = _page(tmp_path)
    first, _ = _written(service_worker(page))
    assert _written(service_worker(page))[0] == first  # the same files, the same worker
    (page / "notes.txt").write_text("changed, but not the page's")
    assert _written(service_worker(page))[0] == first
    (page / "js" / "app.js").write_text("start(); // fixed")
    assert _written(service_worker(page))[0] != first


def test_the_real_worker_keeps_the_shell_and_no_api() -> None:
    text = service_worker(WEB_STATIC)
    assert "__KOZYR_" not in text
    _, shell = _written(text)
    for address in ("/index.html", "/js/app.js", "/css/dark.css", "/manifest.ru.json"):
        assert address in shell
    assert "/icons/icon-192.png" in shell and "/icons/icon-512.png" in shell
    assert "/sw.js" not in shell
    assert not [a for a in shell if a.startswith(("/api", "/ws"))]
