"""The game page's clocks in Chromium (issue 15): the running clock ticks each second, the
waiting one stands, and a timeout the server plays shows in the log by itself.

The server runs on real time, and the shortest clock is a minute: to make B's time run out
now, the test shortens what is left on B's clock in the database (the row the server's own
deadline task polls), as if the minute had passed; the server then finds the deadline due and
plays the timeout through its ordinary path."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from playwright.sync_api import expect

from tests.browser.conftest import OpenPage, Referee, api_post, create_and_claim, enter_by_seat_link
from tests.conftest import LiveServer

CLOCK = {"kind": "live", "initial_s": 600, "increment_s": 20}


def _sync_url(url: str) -> str:
    return url.replace("sqlite+aiosqlite", "sqlite")


def _run_out_soon(db_url: str, game_id: str, side: str, seconds: float) -> None:
    engine = sa.create_engine(_sync_url(db_url))
    try:
        with engine.begin() as conn:
            raw = conn.execute(
                sa.text("SELECT clock FROM games WHERE id = :id"), {"id": game_id}
            ).scalar_one()
            clock = json.loads(raw) if isinstance(raw, str) else raw
            now = datetime.now(UTC)
            clock["sides"][side].update(left=seconds, since=now.isoformat())
            deadline = now + timedelta(seconds=seconds)
            clock["deadline"] = deadline.isoformat()
            conn.execute(
                sa.text("UPDATE games SET clock = :clock, deadline = :deadline WHERE id = :id"),
                {"clock": json.dumps(clock), "deadline": deadline, "id": game_id},
            )
    finally:
        engine.dispose()


def test_a_live_clock_ticks_and_a_timeout_is_shown(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game_id, tokens = create_and_claim(live_server, {"scenario": "duel", "clock": CLOCK})
    deploy = {
        "type": "deploy",
        "ships": [{"ship": "a1", "position": {"x": 36, "y": 4}, "heading": 0, "speed": 0}],
    }
    api_post(live_server, f"/games/{game_id}/commands", deploy, tokens["A"])
    page = open_page()
    enter_by_seat_link(page, f"{live_server.url}/seat/{tokens['A']}")
    mine, theirs = page.locator('.clock[data-side="A"]'), page.locator('.clock[data-side="B"]')
    expect(theirs).to_have_class("clock running")
    expect(mine).to_have_class("clock")
    # 600 s less the moment A took to deploy, plus the increment: 10:20 when A's deploy came
    # within 50 ms of the game's start (the view gives tenths), else 10:19; then it stands
    expect(mine.locator(".left")).to_have_text(re.compile(r"^10:(19|20)$"))
    standing = mine.locator(".left").inner_text()
    first = theirs.locator(".left").inner_text()
    expect(theirs.locator(".left")).not_to_have_text(first)  # it ticks on the page
    expect(mine.locator(".left")).to_have_text(standing)
    _run_out_soon(live_server.db_url, game_id, "B", 2.0)
    expect(page.locator("#log")).to_contain_text(
        "Time ran out for Raider: the server played deployed every ship"
    )
    events = [e for e in referee.events(game_id) if e["type"] == "timed_out"]
    # B's deployment first; later B's next decisions may time out too (20 s each)
    assert events[0]["data"] == {"side": "B", "count": 1, "played": ["deploy"]}
    assert {e["data"]["side"] for e in events} == {"B"}
