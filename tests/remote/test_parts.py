"""The host's small parts on their own: the stream's parser, ``Retry-After``, the token."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from app.remote.api import retry_after
from app.remote.cli import BadInput, Say, read_token
from app.remote.sse import Message, messages


async def lines(*items: str) -> AsyncIterator[str]:
    for item in items:
        yield item


async def test_the_parser_reads_frames_and_skips_keep_alives() -> None:
    stream = lines(
        ": keep-alive",
        "id: 8",
        "event: ping",
        'data: {"seq": 8}',
        "",
        ":",
        "event: chat",
        "data: {}",
        "",
        "id: 9",
        "event: turn_started",
        "data:one",
        "data: two",
        "",
        "",
    )
    got = [m async for m in messages(stream)]
    assert got == [
        Message("ping", '{"seq": 8}', "8"),
        Message("chat", "{}", None),
        Message("turn_started", "one\ntwo", "9"),
    ]


def answer(status: int, **headers: str) -> httpx.Response:
    return httpx.Response(status, headers=headers)


def test_retry_after_in_seconds_as_a_date_or_missing() -> None:
    assert retry_after(answer(429, **{"Retry-After": "3"}), 0.5) == 3
    dated = {
        "Retry-After": "Wed, 02 Dec 2026 10:00:07 GMT",
        "Date": "Wed, 02 Dec 2026 10:00:00 GMT",
    }
    assert retry_after(answer(503, **dated), 0.5) == 7
    assert retry_after(answer(429), 0.5) == 0.5
    assert retry_after(answer(429, **{"Retry-After": "soon"}), 2.0) == 2.0
    assert retry_after(answer(429, **{"Retry-After": "-4"}), 2.0) == 0.0


def test_the_token_comes_from_the_file_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PINGDUEL_BOT_TOKEN", "from-the-environment")
    assert read_token(None) == "from-the-environment"
    path = tmp_path / "token"
    path.write_text("  from-the-file\n")
    assert read_token(path) == "from-the-file"  # the file wins when it is given
    path.write_text("two words\n")
    with pytest.raises(BadInput) as refused:
        read_token(path)
    assert "two words" not in str(refused.value)
    monkeypatch.delenv("PINGDUEL_BOT_TOKEN")
    with pytest.raises(BadInput, match="PINGDUEL_BOT_TOKEN"):
        read_token(None)


def test_no_line_of_the_bot_carries_the_token(capsys: pytest.CaptureFixture[str]) -> None:
    Say("s3cret-token")("the answer held s3cret-token, somehow")
    assert capsys.readouterr().err == "pingduel bot: the answer held <the seat token>, somehow\n"
