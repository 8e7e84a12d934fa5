"""What a rewind must not undo (API.md "Referee"), attacked through HTTP.

- Public knowledge stays public: after a rewind to before a ping, the ships that ping (or any
  voided event) revealed keep that reveal as their stale ``last_known`` — the log every seat
  holds still shows those positions — and ``revealed``/``last_known`` are the same for every
  seat. The stored state is what replaying the log in force (``rewound`` events included)
  rebuilds, after one rewind and after a second, earlier one.
"""

from __future__ import annotations

from typing import Any

import httpx

from app.rules import Event, replay
from app.rules.evolve import evolve
from tests.referee.conftest import (
    Game,
    api_events,
    api_view,
    assert_same_state,
    play,
    record,
    referee_game,
    referee_ok,
    stored_state,
)

# with this id (and the conftest's seed) A moves, pings and finds b1, then both sides fire
GID = "rewindtwin0001"
SEATS = ("A", "B", "spectator", "referee", "admin")


def replayed(log: list[dict[str, Any]]) -> Any:
    """The state the log in force rebuilds: every event not voided, in seq order."""
    kept = [Event(e["seq"], e["turn"], e["type"], e["data"]) for e in log if not e.get("voided")]
    state = replay(kept[:1])
    for event in kept[1:]:
        state = evolve(state, event)
    return state


def last_reveals(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each ship's last reveal among ``events``, as a ``last_known``."""
    out = {}
    for e in events:
        if e["type"] == "ship_revealed":
            d = e["data"]
            out[d["ship"]] = {
                "x": d["position"]["x"],
                "y": d["position"]["y"],
                "heading": d["heading"],
                "turn": e["turn"],
                "seq": e["seq"],
            }
    return out


async def knowledge(client: httpx.AsyncClient, game: Game) -> dict[str, dict[str, Any]]:
    """Every seat's ``revealed``/``last_known`` of every ship, which must be one for all."""
    seen = {}
    for seat in SEATS:
        view = await api_view(client, game, seat)
        seen[seat] = {s["id"]: (s["revealed"], s["last_known"]) for s in view["ships"]}
    first = seen["A"]
    for seat, ships in seen.items():
        assert ships == first, seat
    return {ship: {"revealed": r, "last_known": lk} for ship, (r, lk) in first.items()}


async def test_a_rewind_keeps_what_a_voided_reveal_made_public(
    client: httpx.AsyncClient, db_url: str
) -> None:
    game = await referee_game(client, GID)
    played = await play(client, game, 6)
    ping = next(i for i, p in enumerate(played) if p.body["type"] == "ping")
    pinger = played[ping].body["ship"]
    found = {
        e["data"]["ship"] for e in played[ping].answer["events"] if e["type"] == "ship_revealed"
    }
    assert found == {"a1", "b1"}, "the ping reveals its pinger and the ship it found"
    assert all(k["revealed"] == "live" for k in (await knowledge(client, game)).values())

    to_seq = played[ping - 1].last_seq  # the end of the move before the ping
    await referee_ok(client, game, "rewind", {"to_seq": to_seq, "reason": "a disputed ping"})
    log = await record(client, game)
    voided = [e for e in log if e.get("voided")]
    expected = last_reveals(voided)
    assert set(expected) == {"a1", "b1"}
    now = await knowledge(client, game)
    for ship in ("a1", "b1"):
        assert now[ship] == {"revealed": "stale", "last_known": expected[ship]}, ship
    # the other side's log still holds the voided reveal of the pinger: the view agrees with it
    other = "B" if pinger.startswith("a") else "A"
    theirs = [e for e in await api_events(client, game, other) if e.get("voided")]
    assert last_reveals(theirs)[pinger] == now[pinger]["last_known"]
    assert_same_state(await stored_state(db_url, GID), replayed(log), ignore=())

    # play goes on from the rewound state; a second, earlier rewind keeps both branches' reveals
    more = await play(client, game, 5)
    assert more[0].first_seq == log[-1]["seq"] + 1
    await referee_ok(client, game, "rewind", {"to_seq": played[1].last_seq, "reason": "again"})
    log = await record(client, game)
    expected = last_reveals([e for e in log if e.get("voided")])
    now = await knowledge(client, game)
    assert set(expected) == {"a1", "b1"}
    for ship, last_known in expected.items():
        assert now[ship] == {"revealed": "stale", "last_known": last_known}, ship
    assert_same_state(await stored_state(db_url, GID), replayed(log), ignore=())
