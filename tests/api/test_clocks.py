"""Clocks over HTTP (issue 15), both databases: a clock runs only while the game awaits its
side and is not paused; a due deadline is applied once however many workers poll; three
timeouts in a row let the other side claim the win; the referee adds time; a rewind refunds
nothing; the timeouts are ordinary events of the log (the replay rebuilds the snapshot)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from app.play.clock_math import describe
from tests.api.clock_helpers import (
    LIVE,
    FakeNow,
    apps,
    b_times_out,
    clocks_of,
    events,
    play_own_decision,
)
from tests.api.helpers import API, Duel, command, deploy_duel, new_game, ok, view
from tests.api.replay_check import ADMIN_AUTH, assert_problem, assert_replays

DEPLOY_A = {
    "type": "deploy",
    "ships": [{"ship": "a1", "position": {"x": 36, "y": 4}, "heading": 0, "speed": 0}],
}


async def _clock(client: httpx.AsyncClient, duel: object, seat: str | None = "A") -> dict:
    return (await view(client, duel, seat))["clock"]  # type: ignore[arg-type]


async def test_clock_settings_are_checked(db_url: str, tmp_path: Path) -> None:
    now = FakeNow()
    async with apps(db_url, tmp_path, now) as [(_, client)]:
        bad = [
            {"kind": "live", "initial_s": 59, "increment_s": 0},
            {"kind": "live", "initial_s": 600, "increment_s": -1},
            {"kind": "live", "initial_s": 600},
            {"kind": "live", "initial_s": "600", "increment_s": 0},
            {"kind": "correspondence", "per_move_s": 3599, "bank_max_s": 86400},
            {"kind": "correspondence", "per_move_s": 86400, "bank_max_s": 3600},  # invalid_clock
            {"kind": "blitz", "initial_s": 600, "increment_s": 0},
            {"kind": "live", "initial_s": 600, "increment_s": 0, "extra": 1},
        ]
        for clock in bad:
            r = await client.post(f"{API}/games", json={"scenario": "duel", "clock": clock})
            assert_problem(r, 422)
        corr = {"kind": "correspondence", "per_move_s": 86400, "bank_max_s": 3600}
        r = await client.post(f"{API}/games", json={"scenario": "duel", "clock": corr})
        assert "bank_max_s" in assert_problem(r, 422, "invalid_clock")["detail"]
        r = await client.get(f"{API}/games")  # nothing was created
        assert r.status_code in (401, 403) or r.json()["games"] == []
        duel = await new_game(client, {"scenario": "duel"})
        assert (await _clock(client, duel)) is None
        corr = {"kind": "correspondence", "per_move_s": 86400, "bank_max_s": 259200}
        duel = await new_game(client, {"scenario": "duel", "clock": corr})
        seen = await _clock(client, duel)
        assert seen["kind"] == "correspondence" and seen["A"]["left_s"] == 86400
        assert describe(corr) == "Correspondence: 1 day a decision, up to 3 days banked"


async def test_a_clock_runs_only_for_the_awaited_side(db_url: str, tmp_path: Path) -> None:
    now = FakeNow()
    async with apps(db_url, tmp_path, now) as [(_, client)]:
        r = await client.post(f"{API}/games", json={"scenario": "duel", "clock": LIVE})
        created = r.json()
        # waiting for a seat: no clock runs
        duel = Duel(created["game_id"], {"A": created["token"]})
        now.advance(30)
        seen = await _clock(client, duel)
        assert seen["A"] == {"left_s": 60.0, "running": False}
        code = created["invites"]["B"]
        claim = await client.post(f"{API}/invites/{code}/claim", json={})
        duel.tokens["B"] = claim.json()["token"]
        # deployment awaits both: both run
        now.advance(10)
        seen = await _clock(client, duel)
        assert seen["A"] == {"left_s": 50.0, "running": True}
        assert seen["B"] == {"left_s": 50.0, "running": True}
        await ok(client, duel, "A", DEPLOY_A)
        now.advance(5)
        seen = await _clock(client, duel, "B")
        assert seen["A"] == {"left_s": 70.0, "running": False}  # 50 left + the increment
        assert seen["B"] == {"left_s": 45.0, "running": True}
        await deploy_duel_b(client, duel)
        seen = await view(client, duel, "A")
        awaited = seen["phase"]["awaiting"]
        assert len(awaited) == 1
        other = "B" if awaited == ["A"] else "A"
        now.advance(7)
        clock = await _clock(client, duel)
        assert clock[awaited[0]]["running"] and not clock[other]["running"]
        assert clock[other]["left_s"] == {"A": 70.0, "B": 65.0}[other]


async def deploy_duel_b(client: httpx.AsyncClient, duel: object) -> None:
    body = {
        "type": "deploy",
        "ships": [{"ship": "b1", "position": {"x": 36, "y": 44}, "heading": 6, "speed": 0}],
    }
    await ok(client, duel, "B", body)  # type: ignore[arg-type]


async def test_a_timeout_is_played_once_with_two_workers(db_url: str, tmp_path: Path) -> None:
    now = FakeNow()
    async with apps(db_url, tmp_path, now, count=2) as [(app1, c1), (app2, c2)]:
        duel = await new_game(c1, {"scenario": "duel", "clock": LIVE})
        await ok(c1, duel, "A", DEPLOY_A)
        now.advance(59)
        assert await clocks_of(app1).run_due() == 0  # not yet
        now.advance(2)
        applied = await asyncio.gather(clocks_of(app1).run_due(), clocks_of(app2).run_due())
        assert sum(applied) == 1
        again = await asyncio.gather(clocks_of(app1).run_due(), clocks_of(app2).run_due())
        assert sum(again) == 0
        log = await events(c2, duel, "A")
        timeouts = [e for e in log if e["type"] == "timed_out"]
        assert [e["data"] for e in timeouts] == [{"side": "B", "count": 1, "played": ["deploy"]}]
        deployed = [e for e in log if e["type"] == "deployed"]
        assert len(deployed) == 2  # A's own and the one the server played for B, once
        seen = await view(c2, duel, "B")
        (b1,) = [s for s in seen["ships"] if s["id"] == "b1"]
        zone = seen["deployment_zones"]["B"]
        assert b1["position"]["y"] == pytest.approx((zone["y0"] + zone["y1"]) / 2)
        assert b1["heading"] == 6  # facing the far edge
        assert seen["clock"]["timeouts"] == {"A": 0, "B": 1}
        assert seen["clock"]["B"]["left_s"] == 20.0 or not seen["clock"]["B"]["running"]
        await assert_replays(app1.state.settings.db_url, duel.game_id)


async def test_the_poller_applies_a_due_deadline(db_url: str, tmp_path: Path) -> None:
    now = FakeNow()
    async with apps(db_url, tmp_path, now, count=2, poll=0.05) as [(_, c1), (_, c2)]:
        duel = await new_game(c1, {"scenario": "duel", "clock": LIVE})
        await ok(c1, duel, "A", DEPLOY_A)
        now.advance(61)
        for _ in range(400):
            log = await events(c2, duel, None)
            if any(e["type"] == "timed_out" for e in log):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # both pollers had more turns: still one timeout
        log = await events(c2, duel, None)
        assert [e["data"]["side"] for e in log if e["type"] == "timed_out"] == ["B"]


async def test_three_timeouts_allow_claim_win(db_url: str, tmp_path: Path) -> None:
    now = FakeNow()
    async with apps(db_url, tmp_path, now) as [(app, client)]:
        duel = await new_game(client, {"scenario": "duel", "clock": LIVE})
        r = await command(client, duel, "A", {"type": "claim_win"})
        assert_problem(r, 409, "claim_not_allowed")
        await ok(client, duel, "A", DEPLOY_A)

        async def before(count: int) -> None:
            if count == 2:  # before the third: still refused
                r = await command(client, duel, "A", {"type": "claim_win"})
                assert "after 3" in assert_problem(r, 409, "claim_not_allowed")["detail"]

        await b_times_out(app, client, duel, now, 3, before)
        assert (await view(client, duel, "A"))["clock"]["timeouts"] == {"A": 0, "B": 3}
        r = await command(client, duel, "B", {"type": "claim_win"})
        assert_problem(r, 409, "claim_not_allowed")  # B has nothing to claim
        body = await ok(client, duel, "A", {"type": "claim_win"})
        assert body["view"]["status"] == "finished" and body["view"]["winner"] == "A"
        finished = [e for e in body["events"] if e["type"] == "game_finished"]
        assert finished[0]["data"]["reason"] == "timeouts"
        seen = await view(client, duel, "B")
        assert not seen["clock"]["A"]["running"] and not seen["clock"]["B"]["running"]
        await assert_replays(app.state.settings.db_url, duel.game_id)


async def test_a_decision_in_time_resets_the_count(db_url: str, tmp_path: Path) -> None:
    now = FakeNow()
    async with apps(db_url, tmp_path, now) as [(app, client)]:
        duel = await new_game(client, {"scenario": "duel", "clock": LIVE})
        now.advance(61)  # both time out in deployment
        assert await clocks_of(app).run_due() == 1
        seen = await view(client, duel, "A")
        assert seen["clock"]["timeouts"] == {"A": 1, "B": 1}
        side = seen["phase"]["awaiting"][0]
        await play_own_decision(client, duel, side)
        assert (await view(client, duel, "A"))["clock"]["timeouts"][side] == 0


async def test_pause_stops_the_clock_and_the_referee_adds_time(db_url: str, tmp_path: Path) -> None:
    now = FakeNow()
    async with apps(db_url, tmp_path, now) as [(app, client)]:
        duel = await new_game(client, {"scenario": "duel", "clock": LIVE})
        now.advance(10)
        r = await client.post(
            f"{duel.path}/referee/pause", json={"reason": "tea"}, headers=ADMIN_AUTH
        )
        assert r.status_code == 200, r.text
        assert r.json()["clock"]["A"] == {"left_s": 50.0, "running": False}
        now.advance(1000)
        assert await clocks_of(app).run_due() == 0
        seen = await _clock(client, duel, None)
        assert seen["A"] == {"left_s": 50.0, "running": False}
        assert seen["B"] == {"left_s": 50.0, "running": False}
        r = await client.post(
            f"{duel.path}/referee/resume", json={"reason": "back"}, headers=ADMIN_AUTH
        )
        now.advance(5)
        seen = await _clock(client, duel, None)
        assert seen["A"] == {"left_s": 45.0, "running": True}
        # the referee adds time: a public event with the reason
        add = {"side": "B", "seconds": 30, "reason": "network trouble"}
        r = await client.post(f"{duel.path}/referee/add-time", json=add)
        assert_problem(r, 401)
        r = await client.post(f"{duel.path}/referee/add-time", json=add, headers=duel.auth("A"))
        assert_problem(r, 403)
        for wrong in (
            {**add, "seconds": 0},
            {**add, "seconds": 7 * 86400 + 1},
            {**add, "side": "C"},
        ):
            r = await client.post(f"{duel.path}/referee/add-time", json=wrong, headers=ADMIN_AUTH)
            assert_problem(r, 422)
        r = await client.post(f"{duel.path}/referee/add-time", json=add, headers=ADMIN_AUTH)
        assert r.status_code == 200, r.text
        assert r.json()["clock"]["B"] == {"left_s": 75.0, "running": True}
        log = await events(client, duel, "A")
        assert log[-1]["type"] == "time_added" and log[-1]["data"] == add
        # the deadline moved with it: 45 s on A's clock, 75 s on B's
        now.advance(50)
        assert await clocks_of(app).run_due() == 1
        timed = [
            e["data"]["side"] for e in await events(client, duel, None) if e["type"] == "timed_out"
        ]
        assert timed == ["A"]
        plain = await new_game(client, {"scenario": "duel"})
        r = await client.post(f"{plain.path}/referee/add-time", json=add, headers=ADMIN_AUTH)
        assert_problem(r, 409, "no_clock")


async def test_a_rewind_refunds_no_time(db_url: str, tmp_path: Path) -> None:
    now = FakeNow()
    clock = {"kind": "live", "initial_s": 600, "increment_s": 0}
    async with apps(db_url, tmp_path, now) as [(app, client)]:
        duel = await new_game(client, {"scenario": "duel", "clock": clock})
        now.advance(100)
        body = await ok(client, duel, "A", DEPLOY_A)
        deployed_at = body["events"][-1]["seq"]
        now.advance(200)
        await deploy_duel_b(client, duel)
        before = await _clock(client, duel)
        assert before["A"]["left_s"] <= 500 and before["B"]["left_s"] == 300
        r = await client.post(
            f"{duel.path}/referee/rewind",
            json={"to_seq": deployed_at, "reason": "misclick"},
            headers=ADMIN_AUTH,
        )
        assert r.status_code == 200, r.text
        after = r.json()["clock"]
        assert after["B"] == {"left_s": 300.0, "running": True}  # B deploys again, no refund
        assert after["A"]["left_s"] <= before["A"]["left_s"]
        await assert_replays(app.state.settings.db_url, duel.game_id)


async def test_deploy_duel_without_clock_is_unchanged(db_url: str, tmp_path: Path) -> None:
    now = FakeNow()
    async with apps(db_url, tmp_path, now) as [(app, client)]:
        duel = await new_game(client, {"scenario": "duel"})
        await deploy_duel(client, duel)
        now.advance(10**6)
        assert await clocks_of(app).run_due() == 0
        assert (await view(client, duel, "B"))["clock"] is None
