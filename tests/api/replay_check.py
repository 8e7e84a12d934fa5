"""Helpers for the games the API tests play over HTTP.

- ``assert_replays(db_url, game_id)``: the stored log (voided events left out), replayed by the
  rules engine, rebuilds exactly the stored snapshot (DESIGN.md: "a test checks this for every
  game the test suite plays").
- ``assert_dice(record, game_id)``: every die of a finished record recomputed from its seed
  (RULES.md §12) with ``SeededDice`` and each event's ``rolls``.
- ``create``/``Game``: a game created over HTTP, optionally with a fixed ``game_id`` (the dice
  are ``HMAC(seed, f"{game_id}:{k}")``, so a fixed seed plays the same game only under a fixed
  id; the id generator is patched for the one create call) and every invite claimed.
- ``choose``/``play``: a simple scripted player that reads only its own view (``phase.legal``)
  and fights: move (braking by 4 a move), ping after the move, fire every ``fire_options``
  weapon once; an out-of-control ship is named with ``activate``.
- ``assert_problem``: an ``application/problem+json`` error with the given status and code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from app.rules import Event, SeededDice, replay
from app.rules.snapshot import state_from_dict
from app.store.models import EventRow
from app.store.models import Game as GameRow
from tests.conftest import ADMIN

API = "/api/v1"
PROBLEM = "application/problem+json"
ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}


# -- the log replays to the snapshot ---------------------------------------------------------------
async def assert_replays(db_url: str, game_id: str) -> None:
    """Replay the stored, non-voided events and compare with the stored snapshot."""
    engine = create_async_engine(db_url)
    try:
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(
                        EventRow.seq, EventRow.turn, EventRow.type, EventRow.data, EventRow.voided
                    )
                    .where(EventRow.game_id == game_id)
                    .order_by(EventRow.seq)
                )
            ).all()
            game = (
                await conn.execute(
                    select(GameRow.snapshot, GameRow.seq).where(GameRow.id == game_id)
                )
            ).one()
    finally:
        await engine.dispose()
    assert rows, f"game {game_id} has no stored events"
    # every seq of the game, voided or not, is in the log once, with no gap
    assert [r.seq for r in rows] == list(range(1, game.seq + 1))
    events = [Event(r.seq, r.turn, r.type, dict(r.data)) for r in rows if not r.voided]
    assert replay(events) == state_from_dict(game.snapshot)


# -- every die of a record -------------------------------------------------------------------------
def _dice(event: Mapping[str, Any]) -> Iterator[tuple[int, list[int] | None]]:
    """(value, None) for each die the event shows in draw order; a ping's ECM draw is checked
    separately (the dice that count are a prefix of the two drawn)."""
    kind, d = event["type"], event["data"]
    if kind == "turn_started":
        for pair in d.get("rolloff", []):
            yield from ((v, None) for v in pair)
    elif kind == "core_roll":
        yield d["die"], None
    elif kind == "fire_resolved":
        for shot in d["shots"]:
            if not shot.get("cancelled"):
                yield from ((v, None) for v in shot["rolled"])
    elif kind == "threshold_check":
        yield from ((r["die"], None) for r in d["results"])
    elif kind == "system_damaged":
        yield from ((d[k], None) for k in ("core_roll", "effect_roll") if k in d)
    elif kind == "damage_control":
        yield from ((a["die"], None) for a in d["attempts"])
    else:
        raise AssertionError(f"event {event['seq']} ({kind}) rolled dice this check cannot read")


def assert_dice(record: Mapping[str, Any], game_id: str) -> dict[str, int]:
    """Recompute every die of the record; returns how many dice of each event type were checked.

    The roll numbers of all events together are 0, 1, 2, … with none missing or repeated."""
    dice = SeededDice.from_hex(record["seed"], game_id)
    checked: dict[str, int] = {}
    numbers: list[int] = []
    for event in record["events"]:
        if event.get("voided"):
            continue
        rolls = list(event["data"].get("rolls") or [])
        numbers += rolls
        if not rolls:
            continue
        kind = event["type"]
        if kind == "ping":
            it = iter(rolls)
            for item in event["data"]["detections"]:
                for value in item["ping_dice"]:
                    assert dice.d6(next(it)) == value, event
                drawn = [dice.d6(next(it)), dice.d6(next(it))]  # always two ECM dice drawn
                if "ecm_drawn" in item:
                    assert item["ecm_drawn"] == drawn, event
                ecm = item["ecm_dice"]
                assert len(ecm) <= 2 and ecm == drawn[: len(ecm)], event
                beats = max(item["ping_dice"]) > max(ecm, default=0)
                assert item["revealed"] == (beats and item.get("in_range", True)), event
            assert next(it, None) is None, f"event {event['seq']}: unused roll numbers"
            count = len(rolls)
        else:
            values = [v for v, _ in _dice(event)]
            assert len(values) == len(rolls), event
            for k, value in zip(rolls, values, strict=True):
                assert dice.d6(k) == value, f"event {event['seq']}: roll {k} is not {value}"
            count = len(values)
        checked[kind] = checked.get(kind, 0) + count
    assert numbers == list(range(len(numbers))), "roll numbers skip or repeat"
    return checked


def assert_seed_commitment(seed_hex: str, commitment: str) -> None:
    assert hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() == commitment


# -- problems --------------------------------------------------------------------------------------
def assert_problem(r: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    """An RFC 9457 problem with the stable fields; returns the body."""
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].split(";")[0].strip() == PROBLEM, r.headers
    body: dict[str, Any] = r.json()
    for key, kind in (("type", str), ("title", str), ("status", int), ("detail", str)):
        assert isinstance(body.get(key), kind), body
    assert body["status"] == status, body
    assert isinstance(body.get("code"), str) and body["code"], body
    if code is not None:
        assert body["code"] == code, body
    return body


# -- games over HTTP -------------------------------------------------------------------------------
@dataclass
class Game:
    id: str
    created: dict[str, Any]
    tokens: dict[str, str] = field(default_factory=dict)
    seed: str | None = None

    @property
    def path(self) -> str:
        return f"{API}/games/{self.id}"

    def auth(self, seat: str) -> dict[str, str]:
        """Headers for a seat: A, B, referee (its own token, else the admin), spectator (none)."""
        if seat == "spectator":
            return {}
        if seat == "referee" and "referee" not in self.tokens:
            return dict(ADMIN_AUTH)
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


async def create(
    client: httpx.AsyncClient,
    body: Mapping[str, Any],
    *,
    game_id: str | None = None,
    claim: bool = True,
) -> Game:
    """POST /games (with ``game_id`` fixed if given), then claim every invite unless told not."""
    # only the admin may choose the seed (RULES §12)
    headers = ADMIN_AUTH if "seed" in body else {}
    if game_id is not None:
        with mock.patch("app.play.tokens.new_id", return_value=game_id):
            r = await client.post(f"{API}/games", json=dict(body), headers=headers)
    else:
        r = await client.post(f"{API}/games", json=dict(body), headers=headers)
    assert r.status_code == 201, r.text
    created = r.json()
    game = Game(created["game_id"], created, {created["side"]: created["token"]}, body.get("seed"))
    if claim:
        for side, code in created["invites"].items():
            c = await client.post(f"{API}/invites/{code}/claim", json={"name": f"Player {side}"})
            assert c.status_code == 200, c.text
            game.tokens[side] = c.json()["token"]
    return game


async def get_view(client: httpx.AsyncClient, game: Game, seat: str) -> dict[str, Any]:
    r = await client.get(game.path, headers=game.auth(seat))
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


async def get_events(
    client: httpx.AsyncClient, game: Game, seat: str, after: int = 0
) -> list[dict[str, Any]]:
    r = await client.get(f"{game.path}/events", params={"after": after}, headers=game.auth(seat))
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


async def send(
    client: httpx.AsyncClient,
    game: Game,
    seat: str,
    body: Mapping[str, Any],
    headers: Mapping[str, str] | None = None,
) -> httpx.Response:
    return await client.post(
        f"{game.path}/commands", json=dict(body), headers={**game.auth(seat), **(headers or {})}
    )


async def ok(
    client: httpx.AsyncClient, game: Game, seat: str, body: Mapping[str, Any]
) -> dict[str, Any]:
    r = await send(client, game, seat, body)
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


async def state_of(client: httpx.AsyncClient, game: Game) -> tuple[str, str]:
    """The referee's view and the whole log, as JSON text: equal before and after a refusal."""
    v = await client.get(game.path, headers=ADMIN_AUTH)
    e = await client.get(f"{game.path}/events", headers=ADMIN_AUTH)
    assert v.status_code == 200 and e.status_code == 200
    return json.dumps(v.json(), sort_keys=True), json.dumps(e.json(), sort_keys=True)


# -- a scripted player -----------------------------------------------------------------------------
def out_of_control(ship: Mapping[str, Any]) -> bool:
    return any(c["type"] == "out_of_control" for c in ship.get("conditions", []))


def _move(v: Mapping[str, Any], ship: Mapping[str, Any], brake: int) -> dict[str, Any]:
    if v["movement"] == "vector":
        return {"type": "move", "ship": ship["id"], "orders": {"rotate": 0, "thrust": 0}}
    change = -min(brake, ship["velocity"], ship["thrust"])
    return {"type": "move", "ship": ship["id"], "orders": {"speed_change": change, "turn": 0}}


def choose(v: Mapping[str, Any], brake: int = 4) -> dict[str, Any]:
    """The next command of the seat whose view this is (it must be awaited)."""
    legal = v["phase"]["legal"]
    commands = legal["commands"]
    ships = {s["id"]: s for s in v["ships"]}
    if "fire" in commands:
        shots, used = [], set()
        for option in legal["fire_options"]:
            if (option["ship"], option["weapon"]) not in used:
                used.add((option["ship"], option["weapon"]))
                shots.append({k: option[k] for k in ("ship", "weapon", "target")})
        return {"type": "fire", "window": legal["window"], "shots": shots}
    if "activate" in commands:
        ship = ships[legal["activatable"][0]]
        if out_of_control(ship):
            return {"type": "activate", "ship": ship["id"]}
        return _move(v, ship, brake)
    if "move" in commands:
        return _move(v, ships[v["phase"]["ship"]], brake)
    if "ping" in commands:
        return {"type": "ping", "ship": v["phase"]["ship"]}
    if "end_activation" in commands:
        return {"type": "end_activation", "ship": v["phase"]["ship"]}
    raise AssertionError(f"nothing to send: {commands}")


Hook = Callable[[str, dict[str, Any], dict[str, Any]], Awaitable[None]]


async def play(
    client: httpx.AsyncClient,
    game: Game,
    *,
    until: Callable[[dict[str, Any]], bool] | None = None,
    before: Hook | None = None,
    max_commands: int = 600,
) -> list[dict[str, Any]]:
    """Play with ``choose`` for whichever seat is awaited until the game is finished (or
    ``until(referee view)`` holds); ``before(seat, view, body)`` runs before each command.
    Returns the replies in order."""
    replies: list[dict[str, Any]] = []
    for _ in range(max_commands):
        ref = await get_view(client, game, "referee")
        if ref["status"] == "finished" or (until is not None and until(ref)):
            return replies
        seat = ref["phase"]["awaiting"][0]
        v = await get_view(client, game, seat)
        body = choose(v)
        if before is not None:
            await before(seat, v, body)
        replies.append(await ok(client, game, seat, body))
    raise AssertionError(f"the game did not finish in {max_commands} commands")
