"""What chat lets out (issue 15): the rule the API documents and the rule the server applies
are one, and a chat answer or hint carries the players' words and nothing else."""

from __future__ import annotations

import asyncio
import re

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from app.live.hub import Hub
from app.live.social import follow_chat, side_frames
from app.play.social import TEXT_PATTERN, ChatTextInvalid, clean_text
from tests.api.helpers import deploy_duel, new_game
from tests.live import A_DEPLOY, B_DEPLOY, HIDDEN_FROM

_RULE = re.compile(TEXT_PATTERN)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=520))
def test_the_documented_pattern_is_the_rule(text: str) -> None:
    """Whatever a client sends, the server accepts it exactly when the schema says so."""
    documented = len(text) <= 500 and _RULE.fullmatch(text) is not None
    try:
        stored = clean_text(text)
    except ChatTextInvalid:
        assert not documented, repr(text)
        return
    assert documented, repr(text)
    assert stored == text.strip() and 1 <= len(stored) <= 500


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 2**31 - 1), channel=st.sampled_from(["players", "spectators"]))
def test_a_chat_frame_holds_only_channel_and_number(n: int, channel: str) -> None:
    async def frames() -> tuple[bytes, bytes]:
        hub = Hub()
        seat, watcher = hub.subscribe("g1"), hub.subscribe("g1")
        follow_chat(seat, "A")
        follow_chat(watcher, "spectator")
        hub.side("g1", f"chat.{channel}.{n}")
        out = side_frames(seat, seat.flags), side_frames(watcher, watcher.flags)
        hub.unsubscribe(seat)
        hub.unsubscribe(watcher)
        await hub.stop()
        return out

    to_seat, to_watcher = asyncio.run(frames())
    line = f'event: chat\r\ndata: {{"channel": "{channel}", "n": {n}}}\r\n\r\n'.encode()
    # a line reaches its own channel's streams only, as its channel and number
    assert (to_seat, to_watcher) == ((line, b"") if channel == "players" else (b"", line))


async def test_chat_answers_hold_no_hidden_fact(client: httpx.AsyncClient) -> None:
    """After both sides deployed at distinctive coordinates, every chat answer (both channels,
    both seats) holds the typed words and the fixed fields only — no position of anyone."""
    duel = await new_game(client)
    await deploy_duel(client, duel, A_DEPLOY, B_DEPLOY)
    for seat in ("A", "B"):
        r = await client.post(f"{duel.path}/chat", json={"text": "hi"}, headers=duel.auth(seat))
        assert r.status_code == 201
    assert (await client.post(f"{duel.path}/chat", json={"text": "hey"})).status_code == 201
    for seat, headers in (("A", duel.auth("A")), ("B", duel.auth("B")), ("spectator", {})):
        r = await client.get(f"{duel.path}/chat", headers=headers)
        body = r.json()
        assert set(body) == {"channel", "messages"}
        for message in body["messages"]:
            assert set(message) == {"n", "from", "text", "at"}
            assert message["text"] in ("hi", "hey")
        # the time stamps aside (their seconds and fractions could spell any number)
        rest = str([{k: v for k, v in m.items() if k != "at"} for m in body["messages"]])
        for secrets in HIDDEN_FROM.values():
            for number in secrets:
                assert number not in rest, (seat, number)
