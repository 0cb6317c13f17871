"""The page's service worker at ``/sw.js``: the static ``sw.js`` with the page's files
(the shell it keeps) and their version, a hash of their contents, written in.

The worker keeps each file until the version changes; so that a new release reaches
every phone, the version is worked out from the files the server serves, once, when the
app is set up, and a changed file makes a changed worker, which the browser installs in
place of the old one."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from fastapi import APIRouter, Response

WORKER = "sw.js"
VERSION_MARK = "__KOZYR_VERSION__"
SHELL_MARK = '["__KOZYR_SHELL__"]'
SHELL_SUFFIXES = frozenset({".html", ".css", ".js", ".svg", ".png", ".json"})


def shell_files(static: Path) -> list[str]:
    """The addresses of the page's files the worker keeps, sorted: everything under
    ``static`` of the page's kinds but the worker itself."""
    return sorted(
        "/" + p.relative_to(static).as_posix()
        for p in static.rglob("*")
        if p.is_file() and p.suffix in SHELL_SUFFIXES and p.name != WORKER
    )


def service_worker(static: Path) -> str:
    """The worker's text: ``sw.js`` with the shell's addresses and its version."""
    files = shell_files(static)
    digest = hashlib.sha256()
    for address in files:
        digest.update(address.encode())
        digest.update(hashlib.sha256((static / address[1:]).read_bytes()).digest())
    text = (static / WORKER).read_text(encoding="utf-8")
    return text.replace(VERSION_MARK, digest.hexdigest()[:16]).replace(
        SHELL_MARK, json.dumps(files, ensure_ascii=False)
    )


def shell_router(static: Path) -> APIRouter:
    """``GET /sw.js``: the worker, read and versioned now; the browser asks again for it
    on each visit (``no-cache``) and installs it when its bytes changed."""
    text = service_worker(static)
    router = APIRouter()

    @router.get("/" + WORKER, include_in_schema=False)
    async def worker() -> Response:
        return Response(text, media_type="text/javascript", headers={"cache-control": "no-cache"})

    return router
