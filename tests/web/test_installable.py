"""The page as an installable web app (#44 item 7): a manifest in the page's language with
its icons, and a service worker that keeps the page's own files (the page itself from the
network first, the other files from what it kept) and never the API or the socket."""

from __future__ import annotations

import json
from typing import Any

from tests.web.browsing import BROWSER, _page, clean, guest, switch_language

pytestmark = BROWSER

# The manifest, as the page links it, and its icons: fetched by the page, their size read
# from the PNG header (bytes 16-23: width and height, big-endian).
MANIFEST = """async () => {
  const link = document.querySelector('link[rel="manifest"]');
  const text = await (await fetch(link.href)).text();
  const icons = [];
  for (const icon of JSON.parse(text).icons) {
    const r = await fetch(new URL(icon.src, link.href));
    const b = new DataView(await r.arrayBuffer());
    const type = r.headers.get('content-type');
    icons.push([icon.sizes, r.status, type, b.getUint32(16), b.getUint32(20)]);
  }
  return { href: link.getAttribute('href'), text, icons };
}"""

READY = """() => Promise.race([
  navigator.serviceWorker.ready.then(() => true),
  new Promise((answer) => setTimeout(() => answer(false), 20000)),
])"""

# Every address the worker keeps, over all of its caches.
KEPT = """async () => {
  const kept = [];
  for (const name of await caches.keys()) {
    for (const r of await (await caches.open(name)).keys()) kept.push(new URL(r.url).pathname);
  }
  return kept;
}"""


def test_the_manifest_names_the_room_in_the_pages_language(server: str, browser: Any) -> None:
    page = _page(browser)
    guest(page, server)
    switch_language(page, "en")
    en = page.evaluate(MANIFEST)
    assert en["href"] == "manifest.en.json"
    manifest = json.loads(en["text"])
    assert (manifest["name"], manifest["short_name"]) == ("kozyr — Imperial · Emperor", "kozyr")
    assert (manifest["display"], manifest["start_url"], manifest["lang"]) == (
        "standalone",
        "/",
        "en",
    )
    assert manifest["theme_color"] == "#1c2228"  # the header's colour (css/kozyr.css)
    assert en["icons"] == [
        ["192x192", 200, "image/png", 192, 192],
        ["512x512", 200, "image/png", 512, 512],
    ]
    switch_language(page, "ru")
    ru = page.evaluate(MANIFEST)
    assert ru["href"] == "manifest.ru.json"
    assert json.loads(ru["text"])["short_name"] == "козырь"
    assert ru["icons"] == en["icons"]
    clean(page)
    page.context.close()


def test_the_worker_keeps_the_page_and_never_the_api(server: str, browser: Any) -> None:
    page = _page(browser, workers="allow")
    api: list[tuple[str, bool]] = []
    files: dict[str, bool] = {}

    def seen(response: Any) -> None:
        path = response.url.removeprefix(server.rstrip("/"))
        if path.startswith("/api/"):
            api.append((path, response.from_service_worker))
        else:
            files[path.split("?")[0]] = response.from_service_worker

    page.on("response", seen)
    guest(page, server)
    # the worker installed and active (or, bounded, never: no worker was registered)
    assert page.evaluate(READY) is True
    # a worker looks after the pages opened after it came: the page again
    page.reload()
    page.wait_for_selector("#screen-lobby:not([hidden])")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == server + "sw.js"
    # the page's files come from what the worker kept; the page from the network
    assert files["/js/app.js"] is True
    assert files["/css/dark.css"] is True
    # the lobby, used: tables listed, a table's form filled in
    page.wait_for_selector(".create-form select[name=players] option", state="attached")
    page.click(".top .balance")
    page.wait_for_selector(".wallet-root .wallet-sums")
    assert len(api) >= 3, api
    assert [a for a in api if a[1]] == []  # no API answer came from the worker
    kept = page.evaluate(KEPT)
    assert "/index.html" in kept and "/js/app.js" in kept and "/icons/icon-512.png" in kept
    assert [k for k in kept if k.startswith(("/api", "/ws"))] == []
    clean(page)
    page.context.close()
