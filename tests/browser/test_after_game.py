"""After the game in Chromium (issue 16): the result and the summary, the replay stepped and
played, the viewpoint switch, and the share link as a seat and as a stranger.

One short game without spectators: A's destroyer Lance at (36, 8) and B's scout Wisp at
(36, 18) on a 72 × 24 table; Lance pings, both sides fire in the window that opens, B resigns.
Screenshots: ``artifacts/screenshots/16-after-*.png``.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    SHOTS,
    OpenPage,
    Referee,
    api_post,
    create_and_claim,
    screenshot,
    seat_view,
)
from tests.browser.test_game_clarity import seat_page
from tests.conftest import LiveServer
from tests.web import first_shots

SEED = "af7e" + "0" * 60  # the same dice each run (with the server's fixed game ids)


def _game(server: LiveServer) -> tuple[str, dict[str, str]]:
    """The game, up to Lance's ping (B's Wisp stands still first if the dice say it goes
    first); every ship starts on overwatch, so the ping opens a window for both sides."""
    game_id, tokens = create_and_claim(
        server,
        {
            "sides": {
                "A": {"name": "Patrol", "ships": [{"name": "Lance", "design": "destroyer"}]},
                "B": {"name": "Raiders", "ships": [{"name": "Wisp", "design": "scout"}]},
            },
            "table": {"width": 72, "height": 24},
            "creator": "A",
            "spectators": False,
        },
        SEED,
    )
    here = f"/games/{game_id}/commands"
    for side, ship, y, heading in (("A", "a1", 8, 0), ("B", "b1", 18, 6)):
        at = {"ship": ship, "position": {"x": 36, "y": y}, "heading": heading, "speed": 0}
        api_post(server, here, {"type": "deploy", "ships": [at]}, tokens[side])
    if seat_view(server, game_id, tokens["B"])["phase"]["side"] == "B":
        stay = {"type": "move", "ship": "b1", "orders": {"speed_change": 0, "turn": 0}}
        api_post(server, here, stay, tokens["B"])
        api_post(server, here, {"type": "end_activation", "ship": "b1"}, tokens["B"])
    api_post(server, here, {"type": "ping", "ship": "a1"}, tokens["A"])
    return game_id, tokens


def _fire(server: LiveServer, game_id: str, tokens: dict[str, str]) -> None:
    """Both sides answer the window, each with a shot per weapon that can reach."""
    for side in ("A", "B"):
        v = seat_view(server, game_id, tokens[side])
        if side in v["phase"]["awaiting"]:
            fire = {
                "type": "fire",
                "window": v["phase"]["legal"]["window"],
                "shots": first_shots(v),
            }
            api_post(server, f"/games/{game_id}/commands", fire, tokens[side])


def _seek(page: Page, seq: int) -> None:
    """Move the replay's slider to the frame of event ``seq`` (the slider's own input event)."""
    page.evaluate(
        """seq => { const s = document.getElementById("replay-step");
        for (let i = 0; i <= +s.max; i++) {
          s.value = String(i); s.dispatchEvent(new Event("input"));
          if (document.getElementById("after-replay").dataset.seq === String(seq)) break; } }""",
        seq,
    )
    expect(page.locator("#after-replay")).to_have_attribute("data-seq", str(seq))


def test_after_the_game(live_server: LiveServer, referee: Referee, open_page: OpenPage) -> None:
    game_id, tokens = _game(live_server)
    _fire(live_server, game_id, tokens)
    if referee.view(game_id)["status"] != "finished":
        api_post(live_server, f"/games/{game_id}/commands", {"type": "resign"}, tokens["B"])
    events = referee.events(game_id)
    last = events[-1]["seq"]
    b_deployed = next(e for e in events if e["type"] == "deployed" and e["data"]["side"] == "B")
    pings = sum(e["type"] == "ping" for e in events)

    # A's game page: who won and why, the summary it loads, the replay at the last event
    page = seat_page(open_page, live_server, game_id, tokens["A"])
    expect(page.locator("#result")).to_contain_text("You won")
    finished = events[-1]["data"]
    why = {"resigned": "Raiders (side B) resigned", "no_ships_left": "no ships left in play"}
    expect(page.locator("#result")).to_contain_text(why[finished["reason"]])
    tally = page.locator("#after-tally")
    points = finished["score"]["A"]
    expect(tally.locator('tr[data-row="points"] td[data-side="A"]')).to_have_text(f"{points:g}")
    expect(tally.locator('tr[data-row="pings"] td[data-side="A"]')).to_have_text(str(pings))
    expect(tally.locator('tr[data-row="shots"] td[data-side="A"]')).not_to_have_text("0")
    expect(page.locator("#replay-label")).to_contain_text(f"Event {last} of {last}")
    page.locator("#replay").scroll_into_view_if_needed()
    screenshot(page, "16-after-game-page")

    # step back and forth; play runs to the end by itself
    page.locator("#replay-prev").click()
    expect(page.locator("#replay-label")).not_to_contain_text(f"Event {last} of")
    page.locator("#replay-next").click()
    expect(page.locator("#replay-label")).to_contain_text(f"Event {last} of {last}")
    volley = next(e for e in events if e["type"] == "fire_resolved")
    _seek(page, volley["seq"])
    expect(page.locator("#replay-fx line.rp-shot")).not_to_have_count(0)
    page.locator("#after-replay").screenshot(path=str(SHOTS / "16-after-volley.png"))

    # the viewpoint switch: just after B deployed, A's view has no Wisp, the truth has it
    _seek(page, b_deployed["seq"])
    wisp = page.locator('#replay-layer g.ship[data-ship="b1"]')
    expect(wisp).to_have_count(1)
    expect(wisp).to_have_attribute("data-kind", "truth")
    page.get_by_label("What side A knew").check()
    expect(page.locator("#after-replay")).to_have_attribute("data-view", "A")
    expect(wisp).to_have_count(0)
    expect(page.locator('#replay-layer g.ship[data-ship="a1"]')).to_have_attribute(
        "data-kind", "own"
    )
    # after the ping A saw Wisp live
    ping = next(e for e in events if e["type"] == "fire_window")
    _seek(page, ping["seq"])
    expect(wisp).to_have_attribute("data-kind", "live")
    page.locator("#after-replay").screenshot(path=str(SHOTS / "16-after-view-A.png"))
    page.get_by_label("What side B knew").check()
    expect(page.locator('#replay-layer g.ship[data-ship="b1"]')).to_have_attribute(
        "data-kind", "own"
    )
    _seek(page, events[-3]["seq"])
    play = page.locator("#replay-play")
    play.click()  # one event after another to the last, then it stops
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#replay-label")).to_contain_text(f"Event {last} of {last}")
    expect(play).to_have_attribute("aria-pressed", "false")

    # the share link: no token in it; a seat opens it, a stranger is told why not
    link = page.locator("#share-link").get_attribute("href")
    assert link == f"{live_server.url}/games/{game_id}/replay"
    assert all(token not in link for token in tokens.values())
    page.goto(link)
    expect(page).to_have_title(re.compile("Replay of game"))
    expect(page.locator("#after-head")).to_have_text("Patrol (side A) won")
    expect(page.locator("#replay-label")).to_contain_text(f"Event {last} of {last}")
    screenshot(page, "16-after-replay-page")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing scrolls sideways
    wide = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    page.wait_for_function(f"({wide})() <= 0")
    screenshot(page, "16-after-replay-page-phone")
    stranger = open_page()
    answer = stranger.goto(link)
    assert answer is not None and answer.status == 403
    expect(stranger.get_by_role("alert")).to_contain_text("without spectators")
    expect(stranger.locator("#after-tally")).to_have_count(0)
    screenshot(stranger, "16-after-stranger")
