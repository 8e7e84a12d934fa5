"""The view and the command's short way through FastAPI (``app.api.hot``) answers exactly as
the general way does: the same status, headers that matter and body, for good requests and
for every kind of refusal, and it is really taken for the common ones (else this test would
compare the general way with itself)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from app.api import hot
from tests.api.helpers import Duel, new_game

Request = Callable[[httpx.AsyncClient, Duel], Awaitable[httpx.Response]]


def _view(seat: str | None, **headers: str) -> Request:
    async def send(c: httpx.AsyncClient, duel: Duel) -> httpx.Response:
        auth = duel.auth(seat) if seat else {}
        return await c.get(duel.path, headers={**auth, **headers})

    return send


def _command(seat: str, body: Any, raw: bytes | None = None, **headers: str) -> Request:
    async def send(c: httpx.AsyncClient, duel: Duel) -> httpx.Response:
        path = f"{duel.path}/commands"
        if raw is not None:
            return await c.post(path, content=raw, headers={**duel.auth(seat), **headers})
        return await c.post(path, json=body, headers={**duel.auth(seat), **headers})

    return send


async def _twice_header(c: httpx.AsyncClient, duel: Duel) -> httpx.Response:
    headers = [("Authorization", duel.auth(seat)["Authorization"]) for seat in ("B", "A")]
    return await c.get(duel.path, headers=headers)


REQUESTS: dict[str, Request] = {
    "view A": _view("A"),
    "view B": _view("B"),
    "view without a token": _view(None),
    "view with a wrong token": _view(None, Authorization="Bearer " + "w" * 43),
    "view with a malformed header": _view(None, Authorization="Basic abc"),
    "view with the header twice": _twice_header,
    "command out of turn": _command("B", {"type": "end_activation", "ship": "b1"}),
    "command of an unknown type": _command("A", {"type": "warp"}),
    "command with a wrong field type": _command("A", {"type": "end_activation", "ship": 3}),
    "command as a JSON array": _command("A", [1, 2]),
    "command not JSON": _command("A", None, raw=b"{nope", **{"Content-Type": "application/json"}),
    "command as text": _command("A", None, raw=b"{}", **{"Content-Type": "text/plain"}),
    "command with an empty key": _command(
        "A", {"type": "end_activation", "ship": "a1"}, **{"Idempotency-Key": ""}
    ),
    "command with a key too long": _command(
        "A", {"type": "end_activation", "ship": "a1"}, **{"Idempotency-Key": "k" * 201}
    ),
}


def _answer(r: httpx.Response) -> tuple[int, str, Any]:
    kind = r.headers.get("content-type", "")
    body = r.json() if "json" in kind else r.text
    return r.status_code, kind, body


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the requests a shortcut answered itself (or refused: a refusal is raised)."""
    counts: Counter[str] = Counter()
    for endpoint, shortcut in list(hot._SHORTCUTS.items()):

        async def counted(route: Any, request: Any, _s: Any = shortcut, _e: Any = endpoint) -> Any:
            try:
                answer = await _s(route, request)
            except Exception:  # a refusal, raised by the endpoint the short way called
                counts[_e.__name__] += 1
                raise
            if answer is not None:
                counts[_e.__name__] += 1
            return answer

        monkeypatch.setitem(hot._SHORTCUTS, endpoint, counted)
    return counts


async def test_the_short_way_answers_as_the_general_way(
    client: httpx.AsyncClient, taken: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    duel = await new_game(client)
    fast = {name: _answer(await send(client, duel)) for name, send in REQUESTS.items()}
    assert taken["get_view"] >= 2 and taken["post_command"] >= 1, taken
    with monkeypatch.context() as general:
        general.setattr(hot, "_SHORTCUTS", {})
        slow = {name: _answer(await send(client, duel)) for name, send in REQUESTS.items()}
    for name in REQUESTS:
        assert fast[name] == slow[name], name


async def test_an_answer_stored_one_way_is_replayed_the_other(
    client: httpx.AsyncClient, taken: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both ways read the Idempotency-Key alike: a command sent the short way and resent the
    general way with the same key gets the stored answer, and the game moved once."""
    duel = await new_game(client)

    async def seq() -> int:
        events = (await client.get(f"{duel.path}/events", headers=duel.auth("A"))).json()
        return int(events["last_seq"])

    body = {"type": "end_activation", "ship": "a1"}
    key = {"Idempotency-Key": "same-key-both-ways"}
    first = await _command("A", body, **key)(client, duel)
    assert taken["post_command"] == 1
    after_first = await seq()
    with monkeypatch.context() as general:
        general.setattr(hot, "_SHORTCUTS", {})
        again = await _command("A", body, **key)(client, duel)
    assert _answer(first) == _answer(again)
    assert await seq() == after_first
