"""The multi-machine set-up in ``deploy/`` (compose file, nginx) and ``docs/deploy.md``
agree with what the server needs: every kozyr service on the same PostgreSQL and Redis with
a node id of its own, nginx sending WebSockets with the upgrade headers to every one of
them, with no sticky sessions and no header lost."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def kozyr_services() -> dict[str, dict[str, Any]]:
    return {
        name: service
        for name, service in compose()["services"].items()
        if "kozyr" in " ".join(service.get("command", []))
    }


def blocks(text: str, head: str) -> dict[str, str]:
    """The bodies of the ``head ARG { ... }`` blocks of an nginx file (nested braces kept)."""
    found = {}
    for match in re.finditer(rf"^\s*{head}\s+(\S+)\s*\{{", text, re.MULTILINE):
        depth, i = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        found[match.group(1)] = text[match.end() : i - 1]
    return found


def nginx() -> str:
    lines = (DEPLOY / "nginx.conf").read_text().splitlines()
    return "\n".join(line.split("#", 1)[0] for line in lines)


def test_every_kozyr_service_shares_postgres_and_redis_with_its_own_node_id() -> None:
    services = kozyr_services()
    assert len(services) >= 2
    envs = [service["environment"] for service in services.values()]
    for env in envs:
        assert env["KOZYR_DATABASE_URL"].startswith("postgresql://")
        assert "@postgres:" in env["KOZYR_DATABASE_URL"]
        assert env["KOZYR_REDIS_URL"] == "redis://redis:6379/0"
        assert int(env["KOZYR_LEASE_TTL_MS"]) > 0
    assert len({env["KOZYR_NODE_ID"] for env in envs}) == len(envs)
    assert len({env["KOZYR_DATABASE_URL"] for env in envs}) == 1
    for service in services.values():
        command = service["command"]
        assert command[command.index("--workers") + 1] == "2"
        assert command[command.index("--port") + 1] == "8000"
        assert "ports" not in service  # reached only through nginx
    assert {"postgres", "redis", "nginx"} <= set(compose()["services"])


def test_nginx_reaches_every_kozyr_service_without_sticky_sessions() -> None:
    text = nginx()
    upstreams = blocks(text, "upstream")
    servers = re.findall(r"^\s*server\s+(\S+?):8000\b", upstreams["kozyr"], re.MULTILINE)
    assert sorted(servers) == sorted(kozyr_services())
    for sticky in ("ip_hash", "sticky", "hash "):
        assert sticky not in upstreams["kozyr"]
    assert "./nginx.conf:/etc/nginx/nginx.conf" in " ".join(
        compose()["services"]["nginx"]["volumes"]
    )


def test_every_proxied_location_passes_host_and_forwarded_headers() -> None:
    locations = blocks(nginx(), "location")
    proxied = {path: body for path, body in locations.items() if "proxy_pass" in body}
    assert {"/", "/api/", "/ws"} <= set(proxied)
    for path, body in proxied.items():
        assert "proxy_pass http://kozyr;" in body, path
        for header, value in (
            ("Host", "$host"),
            ("X-Forwarded-For", "$remote_addr"),
            ("X-Forwarded-Proto", "$scheme"),
        ):
            pattern = rf"proxy_set_header\s+{header}\s+{re.escape(value)};"
            assert re.search(pattern, body), (path, header)
    ws = proxied["/ws"]
    assert re.search(r"proxy_http_version\s+1\.1;", ws)
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade;", ws)
    assert re.search(r"proxy_set_header\s+Connection\s+\$connection_upgrade;", ws)
    assert "deny all" in locations["/metrics"]


def test_the_deploy_doc_names_the_cluster_settings_and_files() -> None:
    doc = (ROOT / "docs" / "deploy.md").read_text()
    for name in (
        "KOZYR_REDIS_URL",
        "KOZYR_NODE_ID",
        "KOZYR_LEASE_TTL_MS",
        "--workers",
        "deploy/compose.yaml",
        "deploy/nginx.conf",
        "$connection_upgrade",
        "fencing token",
    ):
        assert name in doc, name


def test_no_machine_paths_or_package_indexes_in_the_deploy_files() -> None:
    for path in DEPLOY.iterdir():
        text = path.read_text()
        for bad in ("/work/", "/home/", "/root/", "/tmp/", "index-url", "/simple"):
            assert bad not in text, (path.name, bad)
