"""``GET /metrics``: admin only, Prometheus text, requests by route template, command latency,
active games, and never a game id or a token in a label."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app import cli
from tests.api.helpers import API, Duel, command, deploy_duel, new_game
from tests.conftest import ADMIN, LiveServer
from tests.web import Browser

ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}
VIEW = f"{API}/games/{{game_id}}"
COMMANDS = f"{API}/games/{{game_id}}/commands"

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    """Every sample of a scrape: (name, sorted labels) -> value."""
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(scraped: Samples, name: str, **labels: str) -> float:
    return scraped.get((name, tuple(sorted(labels.items()))), 0.0)


async def scrape(client: httpx.AsyncClient) -> Samples:
    r = await client.get("/metrics", headers=ADMIN_AUTH)
    assert r.status_code == 200, r.text
    return samples(r.text)


def requests_of(scraped: Samples, method: str, route: str, status: int) -> float:
    return value(
        scraped, "pingduel_http_requests_total", method=method, route=route, status=str(status)
    )


async def test_metrics_refuse_whoever_is_not_the_admin(client: httpx.AsyncClient) -> None:
    duel = await new_game(client)
    refusals = {
        None: (401, "missing_token"),
        "Basic YWRtaW46eA==": (401, "invalid_token"),
        "Bearer ": (401, "invalid_token"),
        "Bearer not-the-admin-token": (403, "forbidden"),
        f"Bearer {duel.tokens['A']}": (403, "forbidden"),  # a seat's token is no admin's
        f"Bearer {ADMIN}x": (403, "forbidden"),
    }
    for authorization, (status, code) in refusals.items():
        headers = {"Authorization": authorization} if authorization is not None else {}
        r = await client.get("/metrics", headers=headers)
        assert r.status_code == status, (authorization, r.text)
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["code"] == code
        assert "pingduel_" not in r.text
    r = await client.get("/metrics")
    assert r.headers["www-authenticate"] == "Bearer"


async def test_metrics_without_an_admin_token_on_the_server_refuse_everyone(
    db_url: str, tmp_path: Path
) -> None:
    from app.config import Settings
    from app.main import create_app

    app = create_app(Settings(database_url=db_url, data_dir=tmp_path / "data"))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            for headers in ({}, {"Authorization": "Bearer anything"}, ADMIN_AUTH):
                r = await c.get("/metrics", headers=headers)
                assert r.status_code in (401, 403), r.text
                assert "pingduel_" not in r.text


async def test_metrics_are_prometheus_text_for_the_admin(client: httpx.AsyncClient) -> None:
    r = await client.get("/metrics", headers=ADMIN_AUTH)
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    assert r.headers["cache-control"] == "no-store"
    names = {family.name for family in text_string_to_metric_families(r.text)}
    assert "_created" not in r.text  # no start-time series beside every counter
    assert {
        "pingduel_http_requests",
        "pingduel_command_duration_seconds",
        "pingduel_active_games",
    } <= names


async def test_metrics_are_not_in_the_public_api_document(client: httpx.AsyncClient) -> None:
    document = (await client.get(f"{API}/openapi.json")).json()
    assert "/metrics" not in document["paths"]


async def test_requests_are_counted_by_route_template_and_status(
    client: httpx.AsyncClient,
) -> None:
    duel = await new_game(client)
    before = await scrape(client)
    for _ in range(3):
        assert (await client.get(duel.path, headers=duel.auth("A"))).status_code == 200
    assert (await client.get(duel.path, headers={"Authorization": "Bearer nope"})).status_code
    assert (await client.get(f"{API}/no/such/route/{duel.game_id}")).status_code == 404
    assert (await client.delete(f"{duel.path}/commands")).status_code == 405
    after = await scrape(client)

    def grew(method: str, route: str, status: int) -> float:
        return requests_of(after, method, route, status) - requests_of(
            before, method, route, status
        )

    assert grew("GET", VIEW, 200) == 3
    assert grew("GET", VIEW, 401) == 1
    assert grew("GET", "unmatched", 404) == 1
    assert grew("DELETE", COMMANDS, 405) == 1
    assert grew("GET", "/metrics", 200) == 1  # the scrape before, answered before this one


async def test_a_method_out_of_the_list_is_one_label(client: httpx.AsyncClient) -> None:
    before = await scrape(client)
    for word in ("BREW", "WHEN", "PROPFIND"):
        await client.request(word, "/healthz")
    after = await scrape(client)
    grew = requests_of(after, "other", "/healthz", 405) - requests_of(
        before, "other", "/healthz", 405
    )
    assert grew == 3
    methods = {dict(labels).get("method") for _, labels in after}
    assert not methods & {"BREW", "WHEN", "PROPFIND"}


async def _played(client: httpx.AsyncClient) -> list[Duel]:
    """Two games played a little, over the API and the pages, with refusals among them."""
    duels = [await new_game(client), await new_game(client, {"scenario": "duel"})]
    for duel in duels:
        await deploy_duel(client, duel)
        await client.get(duel.path, headers=duel.auth("B"))
        await client.get(f"{duel.path}/events?after=1", headers=duel.auth("A"))
        await command(client, duel, "A", {"type": "no-such-command"})  # refused
        await client.get(duel.path, headers={"Authorization": f"Bearer {duel.tokens['A']}x"})
        await client.get(f"/games/{duel.game_id}")
    browser = Browser(client)
    try:
        await browser.enter(duels[0].tokens["A"])
        await browser.form(f"/games/{duels[0].game_id}/act", {"type": "no-such-action"})
    finally:
        await browser.close()
    return duels


async def test_no_game_id_token_or_invite_anywhere_in_the_metrics(
    client: httpx.AsyncClient,
) -> None:
    duels = await _played(client)
    text = (await client.get("/metrics", headers=ADMIN_AUTH)).text
    secrets = {ADMIN}
    for duel in duels:
        secrets |= {duel.game_id, *duel.tokens.values(), *duel.invites.values()}
    for secret in secrets:
        assert secret not in text
    # every route label is a template or the fixed word
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            route = sample.labels.get("route")
            assert route is None or route == "unmatched" or route.startswith("/"), sample
            assert "seat" not in sample.labels and "game" not in sample.labels


async def test_the_command_latency_histogram_counts_every_command(
    client: httpx.AsyncClient,
) -> None:
    duel = await new_game(client)
    before = await scrape(client)
    await deploy_duel(client, duel)  # two commands
    await command(client, duel, "A", {"type": "no-such-command"})  # a refused one counts too
    await client.get(duel.path, headers=duel.auth("A"))  # not a command
    browser = Browser(client)
    try:
        await browser.enter(duel.tokens["B"])
        r = await browser.form(f"/games/{duel.game_id}/act", {"type": "no-such-action"})
        assert r.status_code >= 400
    finally:
        await browser.close()
    after = await scrape(client)
    name = "pingduel_command_duration_seconds_count"
    assert value(after, name, door="api") - value(before, name, door="api") == 3
    assert value(after, name, door="page") - value(before, name, door="page") == 1
    bucket = "pingduel_command_duration_seconds_bucket"
    assert (
        value(after, bucket, door="api", le="+Inf") - value(before, bucket, door="api", le="+Inf")
        == 3
    )


async def test_the_active_games_gauge_counts_the_games_in_play(
    client: httpx.AsyncClient,
) -> None:
    assert value(await scrape(client), "pingduel_active_games") == 0
    playing = [await new_game(client) for _ in range(2)]
    r = await client.post(f"{API}/games", json={"scenario": "duel"})  # waits for B
    assert r.status_code == 201
    assert value(await scrape(client), "pingduel_active_games") == 2
    r = await client.post(
        f"{playing[0].path}/referee/end",
        json={"winner": "draw", "reason": "test over"},
        headers=ADMIN_AUTH,
    )
    assert r.status_code == 200, r.text
    assert value(await scrape(client), "pingduel_active_games") == 1


def test_several_workers_share_one_metrics_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    with cli.metrics_shared(1):
        assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    with cli.metrics_shared(2):
        path = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
        assert path.is_dir()
    assert not path.exists()
    assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "/operator/chose")
    with cli.metrics_shared(2):
        assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == "/operator/chose"


def test_every_worker_answers_for_all_of_them(db_url: str, tmp_path: Path) -> None:
    """Two workers: each scrape, whichever worker takes it, counts every request so far."""
    server = LiveServer(db_url, tmp_path / "data", workers=2).start()
    try:
        sent = 40
        for _ in range(sent):  # a new connection each: the workers share them out
            assert httpx.get(f"{server.url}/healthz").status_code == 200
        for _ in range(6):
            r = httpx.get(f"{server.url}/metrics", headers=ADMIN_AUTH)
            assert r.status_code == 200, r.text
            counted = requests_of(samples(r.text), "GET", "/healthz", 200)
            assert counted == sent, server.log_tail()  # the start-up polled /readyz only
    finally:
        server.stop()
