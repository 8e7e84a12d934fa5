"""Request ids (``X-Request-ID``) and the JSON logs (``PINGDUEL_LOG_FORMAT=json``)."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.edge.requestlog import REQUEST_ID, JsonFormatter, log_config
from app.main import create_app
from tests.api.helpers import API, deploy_duel, new_game
from tests.conftest import LiveServer, make_settings

GENERATED = re.compile(r"[0-9a-f]{16}")


async def test_every_answer_carries_a_request_id(client: httpx.AsyncClient) -> None:
    answers = [
        await client.get("/healthz"),
        await client.get(f"{API}/games/nope"),  # a problem document
        await client.get("/no/such/page"),
        await client.post(
            f"{API}/games", content=b"{", headers={"Content-Type": "application/json"}
        ),
    ]
    ids = [r.headers["x-request-id"] for r in answers]
    assert all(GENERATED.fullmatch(i) for i in ids), ids
    assert len(set(ids)) == len(ids)
    # the body stays as its schema says: the header carries the id
    assert "request_id" not in answers[1].json()


async def test_a_short_safe_incoming_id_is_kept(client: httpx.AsyncClient) -> None:
    for incoming in ("abc-123", "0f8c1e2a-5b6d-4c7e-9f00-1a2b3c4d5e6f", "lb.7_x", "x" * 64):
        r = await client.get("/healthz", headers={"X-Request-ID": incoming})
        assert r.headers["x-request-id"] == incoming


async def test_a_bad_incoming_id_is_replaced(client: httpx.AsyncClient) -> None:
    for incoming in ("", "a b", "x" * 65, "<script>", "id\\n", "ünï", "a/b", "k=v;q"):
        r = await client.get("/healthz", headers={"X-Request-ID": incoming.encode()})
        answered = r.headers["x-request-id"]
        assert answered != incoming
        assert GENERATED.fullmatch(answered), (incoming, answered)


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """The app's logs, formatted by the JSON formatter, into a buffer."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield buffer
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


async def test_a_line_logged_while_serving_carries_the_request_id(
    db_url: str, tmp_path: Path, json_lines: io.StringIO
) -> None:
    app = create_app(make_settings(db_url, tmp_path, log_format="json"))

    @app.get("/test-logs")
    async def logs_something() -> dict[str, str]:
        logging.getLogger("app.test").info("serving %s", "it")
        return {}

    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            r = await c.get("/test-logs", headers={"X-Request-ID": "trace-42"})
    assert r.status_code == 200
    lines = [json.loads(line) for line in json_lines.getvalue().splitlines()]
    told = [line for line in lines if line["logger"] == "app.test"]
    assert told and told[0]["request_id"] == "trace-42"
    assert told[0]["message"] == "serving it"
    assert told[0]["level"] == "INFO"
    access = [line for line in lines if line["logger"] == "pingduel.access"]
    assert access[-1]["request_id"] == "trace-42"
    assert access[-1]["route"] == "/test-logs"


async def test_an_unhandled_error_is_logged_and_counted_with_its_request_id(
    db_url: str, tmp_path: Path, json_lines: io.StringIO
) -> None:
    app = create_app(make_settings(db_url, tmp_path, log_format="json"))

    @app.get("/test-breaks")
    async def breaks() -> None:
        raise RuntimeError("broken on purpose")

    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            r = await c.get("/test-breaks", headers={"X-Request-ID": "oops-1"})
    assert r.status_code == 500
    assert r.json()["code"] == "internal_error"
    lines = [json.loads(line) for line in json_lines.getvalue().splitlines()]
    crash = [line for line in lines if line["message"] == "unhandled error"]
    assert crash and crash[0]["request_id"] == "oops-1"
    assert "broken on purpose" in crash[0]["exception"]
    access = [line for line in lines if line["logger"] == "pingduel.access"]
    assert access[-1]["status"] == 500 and access[-1]["request_id"] == "oops-1"


async def test_text_mode_writes_no_access_line(
    client: httpx.AsyncClient, json_lines: io.StringIO
) -> None:
    await client.get("/healthz")
    assert "pingduel.access" not in json_lines.getvalue()


def test_the_formatter_writes_one_json_object_with_the_fields() -> None:
    record = logging.LogRecord("app.x", logging.WARNING, __file__, 1, "a %s\nb", ("c",), None)
    outside = json.loads(JsonFormatter().format(record))
    assert outside["request_id"] is None
    REQUEST_ID.set("r-1")
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    line = JsonFormatter().format(record)
    assert "\n" not in line  # one line, whatever the message holds
    parsed = json.loads(line)
    assert parsed["request_id"] == "r-1"
    assert parsed["level"] == "WARNING"
    assert parsed["logger"] == "app.x"
    assert parsed["message"] == "a c\nb"
    assert "ValueError: boom" in parsed["exception"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", parsed["time"])


def test_the_log_config_is_uvicorns_own_in_text_mode() -> None:
    assert log_config("text") is None
    assert log_config("json") is not None
    with pytest.raises(ValueError):
        Settings(log_format="yaml")  # type: ignore[arg-type]


async def test_served_json_logs_parse_and_name_no_game_or_token(
    db_url: str, tmp_path: Path
) -> None:
    """``pingduel serve`` with JSON logs: every line of its stderr is a JSON object; each
    request has its access line with its id, the route template, never a game id or token."""
    server = LiveServer(db_url, tmp_path / "data", PINGDUEL_LOG_FORMAT="json").start()
    try:
        async with httpx.AsyncClient(base_url=server.url) as c:
            duel = await new_game(c)
            await deploy_duel(c, duel)
            r = await c.get(
                f"{duel.path}/events?after=0&secret=s3cr3t",
                headers={**duel.auth("A"), "X-Request-ID": "trace-7"},
            )
            assert r.headers["x-request-id"] == "trace-7"
            bad = await c.get(duel.path, headers={"X-Request-ID": "no good", **duel.auth("B")})
            replaced = bad.headers["x-request-id"]
    finally:
        server.stop()
    text = server.log_path.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert any(line["logger"].startswith("uvicorn") for line in lines)
    assert not any(line["logger"].startswith("alembic") for line in lines)  # /readyz polls
    access = {line["request_id"]: line for line in lines if line["logger"] == "pingduel.access"}
    assert access["trace-7"]["route"] == f"{API}/games/{{game_id}}/events"
    assert access["trace-7"]["status"] == 200
    assert access["trace-7"]["method"] == "GET"
    assert access["trace-7"]["duration_ms"] > 0
    assert access[replaced]["route"] == f"{API}/games/{{game_id}}"
    for secret in (duel.game_id, *duel.tokens.values(), *duel.invites.values(), "s3cr3t"):
        assert secret not in text
