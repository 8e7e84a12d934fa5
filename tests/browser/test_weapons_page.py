"""The compendium's weapons on the game page, in Chromium: a needle raider's fire window offers
each needle beam with a select of the target's systems; the player picks one, fires, and the
volley (and the log) shows the shot at that system. A graser cruiser's multi-fusion launcher is
switched with its own form. Screenshot: artifacts/screenshots/05-needle-fire-window.png."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.browser.conftest import (
    API,
    SHOTS,
    OpenPage,
    Referee,
    api_post,
    create_and_claim,
    enter_by_seat_link,
    settled,
)
from tests.conftest import LiveServer


def _game(server: LiveServer, a_design: str) -> tuple[str, dict[str, str]]:
    """A (``a_design``) 8 mu south of a scout (no ECM: a ping always finds it), both deployed at
    speed 0; A is the activating side with its ship named. Returns (game id, seat tokens)."""
    game_id, tokens = create_and_claim(
        server,
        {
            "sides": {
                "A": {"name": "Raiders", "ships": [{"name": "Lance", "design": a_design}]},
                "B": {"name": "Wardens", "ships": [{"name": "Warden", "design": "scout"}]},
            },
            "table": {"width": 72, "height": 24},
            "creator": "A",
        },
    )
    for side, ship, y, heading in (("A", "a1", 8, 0), ("B", "b1", 16, 6)):
        placement = {"ship": ship, "position": {"x": 30, "y": y}, "heading": heading, "speed": 0}
        api_post(
            server,
            f"/games/{game_id}/commands",
            {"type": "deploy", "ships": [placement]},
            tokens[side],
        )
    phase = httpx.get(
        f"{server.url}{API}/games/{game_id}", headers={"Authorization": f"Bearer {tokens['A']}"}
    ).json()["phase"]
    if phase["side"] == "B":
        api_post(
            server,
            f"/games/{game_id}/commands",
            {"type": "move", "ship": "b1", "orders": {"speed_change": 0, "turn": 0}},
            tokens["B"],
        )
        api_post(
            server,
            f"/games/{game_id}/commands",
            {"type": "end_activation", "ship": "b1"},
            tokens["B"],
        )
    api_post(server, f"/games/{game_id}/commands", {"type": "activate", "ship": "a1"}, tokens["A"])
    return game_id, tokens


def test_a_needle_beam_aims_at_a_chosen_system(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game_id, tokens = _game(live_server, "needle_raider")
    api_post(live_server, f"/games/{game_id}/commands", {"type": "ping", "ship": "a1"}, tokens["A"])
    page = open_page()
    enter_by_seat_link(page, f"{live_server.url}/seat/{tokens['A']}")
    expect(page.locator("#fire-form")).to_be_visible()
    select = page.locator('select[name="system|a1|needle-1|b1"]')
    expect(select).to_be_visible()
    expect(select.locator("option")).to_contain_text(["fc-1 (fire control)"])
    page.locator('input[name="shot@a1|needle-1"][value="a1|needle-1|b1"]').check()
    select.select_option("sensors-1")
    page.screenshot(path=str(SHOTS / "05-needle-fire-window.png"), full_page=True)
    page.locator("#fire-form button.primary").click()
    expect(page.locator("#log")).to_contain_text("You declared 1 shot")
    if "B" in referee.view(game_id)["phase"]["awaiting"]:
        window = [e for e in referee.events(game_id) if e["type"] == "fire_window"][-1]["seq"]
        api_post(
            live_server,
            f"/games/{game_id}/commands",
            {"type": "fire", "window": window, "shots": []},
            tokens["B"],
        )
    events = referee.events(game_id)
    settled(page, events[-1]["seq"])
    volley = next(e for e in events if e["type"] == "fire_resolved")["data"]["shots"]
    assert [(s["weapon"], s.get("system")) for s in volley if s["ship"] == "a1"] == [
        ("needle-1", "sensors-1")
    ]
    expect(page.locator("#log")).to_contain_text("needle-1 → Warden's sensors-1")


def test_a_multi_fusion_launcher_is_switched_on_the_page(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game_id, tokens = _game(live_server, "graser_cruiser")
    page = open_page()
    enter_by_seat_link(page, f"{live_server.url}/seat/{tokens['A']}")
    form = page.locator("form.mode-form")
    expect(form).to_contain_text("fires as a fusion torpedo")
    form.locator("select[name=mode]").select_option("flare")
    form.locator("button").click()
    expect(page.locator("#log")).to_contain_text("switches fusion-1 to flare mode")
    switched = [e for e in referee.events(game_id) if e["type"] == "mode_set"]
    assert [e["data"]["mode"] for e in switched] == ["flare"]
    expect(page.locator("#sheets")).to_contain_text("offline")
