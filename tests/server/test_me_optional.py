"""``GET /api/me?optional=1``: the page's first question, answered without an error."""

from __future__ import annotations

import httpx
import pytest
from tests.server.support import ServerProc

pytestmark = pytest.mark.asyncio


async def test_optional_me_answers_null_before_signing_in_and_the_user_after(
    server: ServerProc,
) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        before = await http.get("/api/me", params={"optional": "1"})
        assert before.status_code == 200 and before.json() == {"user": None}
        # Without the parameter the answer stays 401 (the socket's check relies on it).
        assert (await http.get("/api/me")).status_code == 401
        guest = (await http.post("/api/guest")).json()["user"]
        after = await http.get("/api/me", params={"optional": "1"})
        assert after.status_code == 200 and after.json()["user"] == guest
        bad = await http.get("/api/me", params={"optional": "perhaps"})
        assert bad.status_code == 400
        body = bad.json()
        assert body["code"] and body["message"] and body["message_ru"]
