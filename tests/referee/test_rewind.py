"""A referee's rewind (API.md "Referee"), on the selected backend.

The yardstick is a twin: game B, in a second database, with the same game id, seed and setup as
game A — so the same dice — that was only ever sent A's first k commands. A plays N commands
(deploy, moves, pings, fire windows and volleys), then the referee rewinds A to the end of its
k-th command. Then:

- A's stored snapshot equals B's field by field except ``seq`` (A's log went on),
  ``next_roll`` (the dice counter: A's is at least B's — greater when the voided commands rolled
  dice — and never goes back) and the markers of the ships the voided events revealed: public
  knowledge stays public, each keeps its last voided reveal as a stale ``last_known`` (unless B
  shows it live or knows it more recently);
- the views of A, B, the referee and a spectator equal B's, but for ``seq`` and those markers;
- the voided events stay in the log, marked ``"voided": true`` for every seat, and the log
  without them is B's log; a public ``rewound`` event says what was voided and why;
- further commands in A draw new roll numbers, never one used before (voided ones included);
- a rewind after a pause keeps the pause, and neither referee nor seat events are voided;
- refusals: not the end of a command, a voided or the present or an unknown seq → 422
  ``not_a_command_boundary``; after the end → 409; nothing changes;
- an Idempotency-Key retry of a voided command → 409 ``command_voided``, of a kept one the
  first answer; the same command under a new key is a new command.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import pytest

from app.rules.state import GameState, LastKnown
from tests.referee.conftest import (
    Game,
    Played,
    api_events,
    api_view,
    assert_same_state,
    play,
    record,
    referee_game,
    referee_ok,
    referee_post,
    replay_commands,
    rolls,
    send,
    stored_state,
    without_seq,
)

GID = "rewindtwin0001"
SEATS = ("A", "B", "referee", "spectator")
NEVER_VOIDED = {"paused", "resumed", "rewound", "seat_replaced", "seat_claimed"}


def voided_reveals(log: list[dict[str, Any]]) -> dict[str, LastKnown]:
    """Each ship's last reveal among the voided events of A's record."""
    out = {}
    for e in log:
        if e.get("voided") and e["type"] == "ship_revealed":
            d = e["data"]
            pos = d["position"]
            out[d["ship"]] = LastKnown(pos["x"], pos["y"], d["heading"], e["turn"], e["seq"])
    return out


def _kept(revealed: str, last_known: LastKnown | None, voided: LastKnown) -> bool:
    """Whether a voided reveal becomes the marker: unless the ship is live, or known later."""
    return revealed != "live" and (last_known is None or last_known.seq < voided.seq)


def known(state: GameState, log: list[dict[str, Any]]) -> GameState:
    """B's state with A's voided reveals kept as stale markers."""
    for ship_id, lk in voided_reveals(log).items():
        ship = state.ship(ship_id)
        if _kept(ship.revealed, ship.last_known, lk):
            state = state.with_ship(dataclasses.replace(ship, revealed="stale", last_known=lk))
    return state


def known_view(view: dict[str, Any], log: list[dict[str, Any]]) -> dict[str, Any]:
    """A view of B with A's voided reveals kept as stale markers."""
    reveals = voided_reveals(log)
    ships = []
    for ship in view["ships"]:
        lk = reveals.get(ship["id"])
        seen = ship["last_known"]
        marker = LastKnown(**seen) if seen else None
        if lk is not None and _kept(ship["revealed"], marker, lk):
            ship = {**ship, "revealed": "stale", "last_known": lk.to_dict()}
        ships.append(ship)
    return {**view, "ships": ships}


async def assert_same_views(
    client: httpx.AsyncClient, a: Game, twin: httpx.AsyncClient, b: Game, seats: bool = True
) -> None:
    """Every seat's view of A is its view of B but for ``seq`` and the markers A's voided
    reveals left (and, with ``seats=False``, the seat names: a replaced seat's new token
    carries no player name)."""
    seq_a = (await api_view(client, a, "admin"))["seq"]
    seq_b = (await api_view(twin, b, "admin"))["seq"]
    log = await record(client, a)
    for seat in SEATS:
        seen_a = await api_view(client, a, seat)
        seen_b = known_view(await api_view(twin, b, seat), log)
        assert (seen_a["seq"], seen_b["seq"]) == (seq_a, seq_b), seat
        if not seats:
            assert seen_a["seats"].keys() == seen_b["seats"].keys(), seat
            assert all(seen_a["seats"].values()), seat  # both seats still taken
            seen_a, seen_b = (
                {k: v for k, v in s.items() if k != "seats"} for s in (seen_a, seen_b)
            )
        assert without_seq(seen_a) == without_seq(seen_b), seat


async def assert_same_log(
    client: httpx.AsyncClient, a: Game, twin: httpx.AsyncClient, b: Game
) -> None:
    """A's log without its voided events and the referee's own events is B's log."""
    kept = [e for e in await record(client, a) if not e.get("voided") and e["type"] != "rewound"]
    assert kept == await record(twin, b)


@pytest.mark.parametrize("cut", [2, 3, 6, 9])
async def test_a_rewind_gives_the_game_that_never_had_the_voided_commands(
    client: httpx.AsyncClient, twin: httpx.AsyncClient, db_url: str, twin_db_url: str, cut: int
) -> None:
    a = await referee_game(client, GID)
    b = await referee_game(twin, GID)
    played = await play(client, a, 14)
    assert len(played) == 14, "the captains' game ended early"
    await replay_commands(twin, b, played[:cut])
    to_seq = played[cut - 1].last_seq

    before = await stored_state(db_url, GID)
    log_before = await record(client, a)
    assert rolls([e for e in log_before if e["seq"] > to_seq]), "the voided commands rolled dice"
    reason = f"rewind to the end of command {cut}: a disputed order"
    answer = await referee_ok(client, a, "rewind", {"to_seq": to_seq, "reason": reason})

    after = await stored_state(db_url, GID)
    never = await stored_state(twin_db_url, GID)
    log = await record(client, a)
    assert_same_state(after, known(never, log), ignore=("seq", "next_roll"))
    assert after.seq == before.seq + 1  # one new event: a seq is never reused
    assert never.seq == to_seq
    # the dice counter: never rewound, so A's is ahead of the twin's
    assert after.next_roll == before.next_roll > never.next_roll
    assert answer["seq"] == after.seq and answer["you"] == "referee"
    assert without_seq(answer) == without_seq(known_view(await api_view(twin, b, "referee"), log))
    await assert_same_views(client, a, twin, b)

    # the record keeps every event; those after to_seq are marked voided; B's log is the rest
    assert [e["seq"] for e in log] == list(range(1, after.seq + 1))
    rewound = log[-1]
    assert rewound["type"] == "rewound" and rewound["seq"] == after.seq
    assert rewound["data"] == {
        "to_seq": to_seq,
        "voided": [to_seq + 1, before.seq],
        "reason": reason,
        "next_roll": before.next_roll,
        "last_known": {ship: lk.to_dict() for ship, lk in voided_reveals(log).items()},
    }
    for old, now in zip(log_before, log[:-1], strict=True):
        assert now.get("voided", False) is (now["seq"] > to_seq), now
        assert {k: v for k, v in now.items() if k != "voided"} == old
    await assert_same_log(client, a, twin, b)

    # every seat: the same public rewound event, and the voided events marked
    for seat in ("A", "B", "spectator"):
        events = await api_events(client, a, seat)
        assert events[-1] == rewound, seat
        assert [e["seq"] for e in events if e.get("voided")] == list(
            range(to_seq + 1, before.seq + 1)
        ), seat

    # further commands draw new roll numbers, never one used before; the counter only grows
    used = set(rolls(log))
    counter = after.next_roll
    for _ in range(6):
        await play(client, a, 1)
        now = await stored_state(db_url, GID)
        assert now.next_roll >= counter
        counter = now.next_roll
    fresh = rolls([e for e in await record(client, a) if e["seq"] > after.seq])
    assert fresh, "the commands after the rewind rolled dice"
    assert min(fresh) >= after.next_roll
    assert not set(fresh) & used
    assert len(fresh) == len(set(fresh))


async def test_a_second_rewind_to_an_earlier_command(
    client: httpx.AsyncClient, twin: httpx.AsyncClient, db_url: str, twin_db_url: str
) -> None:
    a = await referee_game(client, GID)
    b = await referee_game(twin, GID)
    played = await play(client, a, 10)
    first = await referee_ok(
        client, a, "rewind", {"to_seq": played[6].last_seq, "reason": "first"}, seat="admin"
    )
    more = await play(client, a, 3)
    assert more and more[0].first_seq == first["seq"] + 1
    # a seq the first rewind voided is no boundary any more
    r = await referee_post(
        client, a, "rewind", {"to_seq": played[8].last_seq, "reason": "voided"}, "referee"
    )
    assert r.status_code == 422 and r.json()["code"] == "not_a_command_boundary", r.text

    before = await stored_state(db_url, GID)
    second = await referee_ok(client, a, "rewind", {"to_seq": played[2].last_seq, "reason": "2nd"})
    await replay_commands(twin, b, played[:3])
    assert_same_state(
        await stored_state(db_url, GID),
        known(await stored_state(twin_db_url, GID), await record(client, a)),
        ("seq", "next_roll"),
    )
    assert (await stored_state(db_url, GID)).next_roll == before.next_roll
    await assert_same_views(client, a, twin, b)
    await assert_same_log(client, a, twin, b)

    log = {e["seq"]: e for e in await record(client, a)}
    # the second rewind voids what was still in force after its target: the rest of the first
    # branch and the commands after the first rewind, never the first rewound event itself
    assert log[second["seq"]]["data"]["voided"] == [played[2].last_seq + 1, more[-1].last_seq]
    assert not log[first["seq"]].get("voided")
    for seq, e in log.items():
        expect_voided = played[2].last_seq < seq < second["seq"] and e["type"] != "rewound"
        assert bool(e.get("voided")) is expect_voided, e


async def test_a_rewind_after_a_pause_keeps_the_pause_and_no_seat_event_is_voided(
    client: httpx.AsyncClient, twin: httpx.AsyncClient, db_url: str, twin_db_url: str
) -> None:
    a = await referee_game(client, GID)
    b = await referee_game(twin, GID)
    played = await play(client, a, 6)
    old_b = a.tokens["B"]
    replaced = await referee_ok(client, a, "replace-seat", {"side": "B", "reason": "new laptop"})
    a.tokens["B"] = replaced["token"]
    played += await play(client, a, 3)
    assert any(p.seat == "B" for p in played[6:]), "B played with its new token"
    paused = await referee_ok(client, a, "pause", {"reason": "checking a disputed ping"})
    assert paused["paused"] is True

    to_seq = played[2].last_seq  # the move before the ping (its window is no rewind point)
    rewound = await referee_ok(client, a, "rewind", {"to_seq": to_seq, "reason": "the ping"})
    assert rewound["paused"] is True and rewound["phase"]["awaiting"] == []
    for seat in SEATS:
        seen = await api_view(client, a, seat)
        assert seen["paused"] is True, seat
        assert seen["phase"]["awaiting"] == [] and seen["phase"]["legal"]["commands"] == []
    r = await client.post(f"{a.path}/commands", json=played[4].body, headers=a.auth(played[4].seat))
    assert r.status_code == 409 and r.json()["code"] == "game_paused", r.text

    # neither the seat replacement nor the pause is voided: B keeps its new token
    log = await record(client, a)
    kinds = {e["type"]: e for e in log}
    assert not kinds["seat_replaced"].get("voided") and not kinds["paused"].get("voided")
    assert kinds["rewound"]["data"]["voided"] == [to_seq + 1, paused["seq"] - 1]
    voided = [e for e in log if e.get("voided")]
    assert voided and all(e["type"] not in NEVER_VOIDED for e in voided)
    assert all(to_seq < e["seq"] < paused["seq"] for e in voided)
    old = await client.get(a.path, headers={"Authorization": f"Bearer {old_b}"})
    assert old.status_code == 401, old.text
    assert (await api_view(client, a, "B"))["you"] == "B"

    # the state is the twin's; after the resume so are the views, and play goes on
    await replay_commands(twin, b, played[:3])
    assert_same_state(
        await stored_state(db_url, GID),
        known(await stored_state(twin_db_url, GID), log),
        ("seq", "next_roll"),
    )
    await referee_ok(client, a, "resume", {"reason": "ping confirmed"})
    await assert_same_views(client, a, twin, b, seats=False)
    assert await play(client, a, 2)


async def test_rewind_refusals_change_nothing(client: httpx.AsyncClient) -> None:
    a = await referee_game(client)
    played = await play(client, a, 6)
    inner = next(p for p in played if p.first_seq < p.last_seq)  # a command of several events
    present = played[-1].last_seq
    unchanged = await record(client, a), await api_view(client, a, "referee")
    for to_seq in (inner.first_seq, present, present + 7, 2**30):
        r = await referee_post(client, a, "rewind", {"to_seq": to_seq, "reason": "no"}, "referee")
        assert r.status_code == 422, (to_seq, r.text)
        assert r.json()["code"] == "not_a_command_boundary", r.text
        assert r.headers["content-type"].startswith("application/problem+json")
    for body in ({"to_seq": 0, "reason": "no"}, {"to_seq": played[2].last_seq, "reason": ""}):
        r = await referee_post(client, a, "rewind", body, "referee")
        assert r.status_code == 422, r.text
    assert (await record(client, a), await api_view(client, a, "referee")) == unchanged

    await referee_ok(client, a, "end", {"winner": "draw", "reason": "both captains agree"})
    ended = await record(client, a)
    r = await referee_post(
        client, a, "rewind", {"to_seq": played[2].last_seq, "reason": "too late"}, "referee"
    )
    assert r.status_code == 409 and r.json()["code"] == "game_finished", r.text
    assert await record(client, a) == ended


async def test_a_retry_of_a_voided_command_is_refused(client: httpx.AsyncClient) -> None:
    a = await referee_game(client)
    played = await play(client, a, 8, keys="cmd")
    cut = 3  # the end of a move (the ping's end opens a fire window: no rewind point)
    await referee_ok(client, a, "rewind", {"to_seq": played[cut - 1].last_seq, "reason": "oops"})
    after = await record(client, a)

    async def retry(p: Played, body: dict[str, Any] | None = None) -> httpx.Response:
        assert p.key is not None
        headers = {**a.auth(p.seat), "Idempotency-Key": p.key}
        return await client.post(f"{a.path}/commands", json=body or p.body, headers=headers)

    for p in played[cut:]:
        r = await retry(p)
        assert r.status_code == 409, r.text
        assert r.json()["code"] == "command_voided", r.text
    for p in played[:cut]:  # a kept command's retry: the first answer, nothing applied twice
        r = await retry(p)
        assert r.status_code == 200, r.text
        assert r.json() == p.answer
    r = await retry(played[cut], {**played[cut].body, "at_seq": 1})
    assert r.status_code == 422 and r.json()["code"] == "idempotency_key_reused", r.text
    assert await record(client, a) == after

    # the same command under a new key is a new command: new seqs, new roll numbers
    again = await send(client, a, played[cut].seat, played[cut].body, "cmd-again")
    assert again.first_seq == after[-1]["seq"] + 1
