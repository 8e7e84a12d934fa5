"""Abuse of issue 14's new doors (/metrics, /api/docs, the seat-link POST, X-Request-ID): odd
methods, non-ASCII and huge headers get a 4xx with the security headers, never a 500; a
client's id that is not of safe characters is replaced; no label takes a client's string."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import ADMIN

ODD = [
    ("HEAD", "/metrics", {}),
    ("OPTIONS", "/metrics", {}),
    ("BREW", "/metrics", {}),
    ("OPTIONS", "/api/docs", {}),
    ("GET", "/metrics", {"Authorization": "Bearer é€".encode()}),
    ("GET", "/metrics", {"Authorization": "Bearer " + "x" * 20000}),
    ("GET", "/metrics", {"Authorization": "bearer"}),
    ("GET", "/metrics", {"Authorization": "Bearer \t "}),
    ("POST", "/games/nosuch/seat-link", {}),
    ("GET", "/games/nosuch/seat-link", {}),
]


@pytest.mark.parametrize(("method", "path", "headers"), ODD)
async def test_odd_requests_get_a_4xx_with_the_headers(
    client: httpx.AsyncClient, method: str, path: str, headers: dict[str, object]
) -> None:
    r = await client.request(method, path, headers=headers)  # type: ignore[arg-type]
    assert 400 <= r.status_code < 500
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("sent", ["a\u00e9b".encode(), b"ok\r\nSet-Cookie: x=1", b"x" * 65])
async def test_an_unsafe_request_id_is_replaced(client: httpx.AsyncClient, sent: bytes) -> None:
    try:
        r = await client.get("/api/docs", headers={"X-Request-ID": sent})
    except httpx.LocalProtocolError:
        return  # the client itself refuses to send a header with a line break
    assert r.status_code == 200
    assert r.headers["x-request-id"].encode() != sent


async def test_no_label_takes_the_clients_strings(client: httpx.AsyncClient) -> None:
    await client.get("/nowhere/attacker-word-1")
    await client.request("ATTACKERVERB", "/attacker-word-2")
    await client.get("/static/attacker-word-3")
    r = await client.get("/metrics", headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 200
    assert "attacker" not in r.text.lower()
