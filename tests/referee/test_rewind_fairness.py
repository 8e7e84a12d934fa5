"""What a rewind must not undo or open up (API.md "Referee"), attacked through HTTP.

- Public knowledge stays public: after a rewind to before a ping, the ships that ping (or any
  voided event) revealed keep that reveal as their stale ``last_known`` — the log every seat
  holds still shows those positions — and ``revealed``/``last_known`` are the same for every
  seat. The stored state is what replaying the log in force (``rewound`` events included)
  rebuilds, after one rewind and after a second, earlier one.
- No rewind point inside an open fire window (from its ``fire_window`` event to its volley):
  after A declared, a rewind there would show B A's shots in the voided volley and let B
  declare again. The API refuses such a seq (422 ``not_a_command_boundary``, the detail naming
  the window) and changes nothing; the referee panel of the game page does not offer it.
"""

from __future__ import annotations

import re
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
    referee_post,
    stored_state,
)
from tests.web import Browser

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


# -- no rewind point inside a fire window ---------------------------------------------------------
def offered(page: str) -> list[int]:
    """The seqs the referee panel's rewind form offers."""
    form = re.search(r"<form[^>]*referee/rewind.*?</form>", page, re.S)
    assert form, "no rewind form on the referee's page"
    return [int(v) for v in re.findall(r'<option value="(\d+)"', form.group(0))]


async def referee_page(client: httpx.AsyncClient, game: Game) -> str:
    browser = Browser(client)
    try:
        await browser.enter(game.tokens["referee"])
        return (await browser.page(game.id)).text
    finally:
        await browser.close()


async def test_no_rewind_point_inside_an_open_fire_window(client: httpx.AsyncClient) -> None:
    game = await referee_game(client, GID)
    played = await play(client, game, 5)
    ping, declared = played[3], played[4]
    assert ping.body["type"] == "ping" and declared.body["type"] == "fire"
    window = ping.last_seq  # the ping's last event opens the window
    fire = (await api_view(client, game, "referee"))["phase"]["fire"]
    assert fire["window"] == window and fire["declared"] == [declared.seat], fire
    # a pause and a resume inside the window are no rewind points either
    await referee_ok(client, game, "pause", {"reason": "tea"})
    await referee_ok(client, game, "resume", {"reason": "back"})
    inside = [window, declared.last_seq, declared.last_seq + 1, declared.last_seq + 2]

    page = await referee_page(client, game)
    points = offered(page)
    assert points == sorted(points, reverse=True) and points
    assert not set(inside) & set(points), points
    assert {p.last_seq for p in played[:3]} <= set(points) and max(points) < window

    unchanged = await record(client, game), await api_view(client, game, "referee")
    for to_seq in inside:
        r = await referee_post(client, game, "rewind", {"to_seq": to_seq, "reason": "x"}, "referee")
        assert r.status_code == 422, (to_seq, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
        problem = r.json()
        assert problem["code"] == "not_a_command_boundary", problem
        if to_seq < inside[-1]:  # the last is the present, refused as such
            assert f"fire window {window}" in problem["detail"], problem["detail"]
            assert "volley" in problem["detail"], problem["detail"]
    assert (await record(client, game), await api_view(client, game, "referee")) == unchanged

    # once the volley is resolved its end is a rewind point again (no longer the present); the
    # points before the window still are
    answer = await play(client, game, 2)  # the volley, then one command after it
    assert any(e["type"] == "fire_resolved" for e in answer[0].answer["events"])
    points = offered(await referee_page(client, game))
    assert answer[0].last_seq in points and not set(inside) & set(points)
    view = await referee_ok(client, game, "rewind", {"to_seq": answer[0].last_seq, "reason": "y"})
    assert view["phase"]["fire"] is None
