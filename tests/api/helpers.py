"""Helpers to drive games over HTTP."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.conftest import ADMIN

API = "/api/v1"


@dataclass
class Duel:
    game_id: str
    tokens: dict[str, str]
    invites: dict[str, str] = field(default_factory=dict)

    def auth(self, seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    @property
    def path(self) -> str:
        return f"{API}/games/{self.game_id}"


async def new_game(client: httpx.AsyncClient, body: dict[str, Any] | None = None) -> Duel:
    """Create a game as A (or as given) and claim every invite; returns the seats' tokens."""
    body = body or {"scenario": "duel"}
    # only the admin may choose the seed (RULES §12)
    headers = {"Authorization": f"Bearer {ADMIN}"} if "seed" in body else {}
    r = await client.post(f"{API}/games", json=body, headers=headers)
    assert r.status_code == 201, r.text
    created = r.json()
    duel = Duel(created["game_id"], {created["side"]: created["token"]}, dict(created["invites"]))
    for side, code in created["invites"].items():
        r = await client.post(f"{API}/invites/{code}/claim", json={"name": f"Player {side}"})
        assert r.status_code == 200, r.text
        duel.tokens[side] = r.json()["token"]
    return duel


async def command(
    client: httpx.AsyncClient, duel: Duel, seat: str, body: dict[str, Any], **headers: str
) -> httpx.Response:
    return await client.post(
        f"{duel.path}/commands", json=body, headers={**duel.auth(seat), **headers}
    )


async def ok(client: httpx.AsyncClient, duel: Duel, seat: str, body: dict[str, Any]) -> Any:
    r = await command(client, duel, seat, body)
    assert r.status_code == 200, r.text
    return r.json()


async def deploy_duel(
    client: httpx.AsyncClient,
    duel: Duel,
    a: tuple[float, float] = (36, 8),
    b: tuple[float, float] = (36, 40),
) -> dict[str, Any]:
    """Deploy a1 heading north at speed 0 and b1 heading south at speed 0."""
    await ok(
        client,
        duel,
        "A",
        {
            "type": "deploy",
            "ships": [{"ship": "a1", "position": {"x": a[0], "y": a[1]}, "heading": 0, "speed": 0}],
        },
    )
    return await ok(
        client,
        duel,
        "B",
        {
            "type": "deploy",
            "ships": [{"ship": "b1", "position": {"x": b[0], "y": b[1]}, "heading": 6, "speed": 0}],
        },
    )


async def view(client: httpx.AsyncClient, duel: Duel, seat: str | None) -> dict[str, Any]:
    headers = duel.auth(seat) if seat else {}
    r = await client.get(duel.path, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


# a ship with one fire control and one standard salvo rack firing forward (ordnance tests)
SALVO_RACK_SHIP = {
    "id": "launcher",
    "name": "Launcher",
    "class": "test",
    "mass": 60,
    "thrust": 4,
    "hull": 20,
    "hull_rows": 4,
    "armour": 0,
    "broadside": False,
    "systems": [
        {"id": "fc-1", "type": "fire_control"},
        {"id": "rack-1", "type": "salvo_rack", "arcs": ["F"], "load": "salvo"},
    ],
}
