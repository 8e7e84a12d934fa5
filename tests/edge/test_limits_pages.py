"""The pages over a limit (a page, or an inline alert for htmx), the admin sign-in's backoff,
client addresses behind proxies, and the settings checked at start."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from app.config import Settings
from tests.conftest import ADMIN, ROOT
from tests.edge.test_limits import DUEL, refused
from tests.web import Browser

API = "/api/v1"
LOBBY_FORM = {"mode": "scenario", "scenario": "duel", "movement": "cinematic", "seat": "A"}


def wait_page(r: httpx.Response) -> int:
    """A 429 page for a person: says in an alert how many seconds to wait."""
    assert r.status_code == 429, r.text
    assert r.headers["content-type"].startswith("text/html")
    wait = int(r.headers["Retry-After"])
    alert = re.search(r'<p class="error" role="alert"[^>]*>(.*?)</p>', r.text, re.S)
    assert alert is not None, r.text
    assert f"wait {wait} second" in alert.group(1)
    return wait


async def test_the_lobby_form_over_the_limit_is_a_page_saying_how_long_to_wait(edge: Any) -> None:
    async with edge(limit_games="1/hour") as e:
        browser = Browser(e.client())
        assert (await browser.form("/games", LOBBY_FORM)).status_code == 201
        r = await browser.form("/games", LOBBY_FORM)
        wait_page(r)
        assert "<h1>Too many requests</h1>" in r.text and "<script" not in r.text
        await browser.close()


async def test_a_page_block_over_the_limit_gets_the_alert_on_top_of_itself(edge: Any) -> None:
    """htmx swaps 4xx answers into the block: the answer is the alert alone, put at the top
    of the block (HX-Reswap), so the controls stay where they were."""
    async with edge(limit_commands="1/hour") as e:
        browser = Browser(e.client())
        made = await browser.form("/games", LOBBY_FORM)
        game_id = re.search(r"/games/([a-z0-9]+)", made.text)
        assert game_id is not None
        act = f"/games/{game_id.group(1)}/act"
        first = await browser.form(act, {"type": "resign"}, htmx=True)
        assert first.status_code != 429
        r = await browser.form(act, {"type": "resign"}, htmx=True)
        assert r.headers["HX-Reswap"] == "afterbegin"
        wait_page(r)
        assert "<html" not in r.text
        await browser.close()


async def test_failed_admin_sign_ins_are_limited_but_the_real_token_signs_in(edge: Any) -> None:
    async with edge(limit_admin_login="2/hour;3/day") as e:
        browser = Browser(e.client())
        await browser.get("/referee")
        for _ in range(2):
            r = await browser.form("/referee/login", {"token": "x" * 40})
            assert r.status_code == 401
        wait_page(await browser.form("/referee/login", {"token": "x" * 40}))
        # a wrong admin cookie on the dashboard is a guess too
        wrong = e.client(cookie="pd_admin=" + "y" * 40)
        wait_page(await wrong.get("/referee"))
        r = await browser.form("/referee/login", {"token": ADMIN})
        assert r.status_code == 303, r.text
        await browser.close()


async def test_forwarded_for_counts_only_from_a_trusted_proxy(edge: Any) -> None:
    async with edge(limit_games="1/hour", trusted_proxies="127.0.0.1, 10.0.0.0/8") as e:
        proxy = e.client("127.0.0.1")

        async def create(client_address: str) -> httpx.Response:
            headers = {"X-Forwarded-For": f"{client_address}, 10.1.2.3"}
            return await proxy.post(f"{API}/games", json=DUEL, headers=headers)

        assert (await create("203.0.113.5")).status_code == 201
        refused(await create("203.0.113.5"), "games")
        assert (await create("203.0.113.6")).status_code == 201  # another client, same proxy
        # a peer that is no trusted proxy writes what it likes: its own address counts
        stranger = e.client("192.0.2.50")
        for spoof, status in (("203.0.113.77", 201), ("203.0.113.78", 429)):
            r = await stranger.post(f"{API}/games", json=DUEL, headers={"X-Forwarded-For": spoof})
            assert r.status_code == status, r.text


async def test_without_trusted_proxies_the_headers_are_ignored(edge: Any) -> None:
    async with edge(limit_games="1/hour") as e:
        c = e.client("127.0.0.1")
        headers = {"X-Forwarded-For": "203.0.113.5"}
        assert (await c.post(f"{API}/games", json=DUEL, headers=headers)).status_code == 201
        headers = {"X-Forwarded-For": "203.0.113.6"}
        refused(await c.post(f"{API}/games", json=DUEL, headers=headers), "games")


async def test_the_proxys_scheme_makes_the_cookies_secure(edge: Any) -> None:
    async with edge(trusted_proxies="127.0.0.1") as e:
        c = e.client("127.0.0.1")
        behind_tls = await c.get("/", headers={"X-Forwarded-Proto": "https"})
        assert "secure" in behind_tls.headers["set-cookie"].lower()
    async with edge() as e:  # not trusted: the header is a stranger's word
        c = e.client("127.0.0.1")
        r = await c.get("/", headers={"X-Forwarded-Proto": "https"})
        assert "secure" not in r.headers["set-cookie"].lower()


def test_an_admin_token_under_32_characters_is_refused() -> None:
    with pytest.raises(ValidationError, match="at least 32"):
        Settings(admin_token="x" * 31)
    assert Settings(admin_token="x" * 32).admin_token is not None
    # empty is unset (the compose file passes "" when no token is given): no admin at all
    assert Settings(admin_token="").admin_token is None
    assert Settings(admin_token="  ").admin_token is None


def test_a_refused_setting_is_named_but_never_echoed() -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(admin_token="s3cr3t-but-short")
    assert "s3cr3t" not in str(caught.value)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("limit_games", "30 a minute", "is not a rate"),
        ("limit_commands", "", "is not a rate"),
        ("trusted_proxies", "10.0.0.1, proxy.example", "not an IP address"),
        ("rate_limit_storage", "memcached://x:11211", "not a storage"),
    ],
)
def test_limit_settings_are_checked_at_start(field: str, value: str, words: str) -> None:
    with pytest.raises(ValidationError, match=words):
        Settings(**{field: value})


def test_pingduel_serve_refuses_a_short_admin_token(tmp_path: Any) -> None:
    from tests.ops.test_cli import run_cli

    result = run_cli(
        "serve",
        "--port",
        "9",
        PINGDUEL_ADMIN_TOKEN="too-short",
        PINGDUEL_DATA_DIR=str(tmp_path / "data"),
    )
    assert result.returncode == 2
    assert "PINGDUEL_ADMIN_TOKEN" in result.stderr and "at least 32" in result.stderr
    assert "too-short" not in result.stderr


def test_the_compose_file_names_its_proxy_and_leaves_the_admin_token_unset() -> None:
    import yaml  # type: ignore[import-untyped]

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    app = compose["services"]["app"]
    env = {**compose["x-app-environment"], **app["environment"]}
    assert "FORWARDED_ALLOW_IPS" not in env  # the app reads the proxy headers itself
    subnet = compose["networks"]["edge"]["ipam"]["config"][0]["subnet"]
    assert env["PINGDUEL_TRUSTED_PROXIES"] == subnet
    assert set(compose["services"]["proxy"]["networks"]) == {"edge"}
    assert "edge" in app["networks"]
    # an unset admin token reaches the app as "": no admin, not a short token
    assert env["PINGDUEL_ADMIN_TOKEN"] == "${PINGDUEL_ADMIN_TOKEN:-}"
    assert Settings(admin_token="").admin_token is None
