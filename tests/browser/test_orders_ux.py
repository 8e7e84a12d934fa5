"""Orders and fire in Chromium (issue 16): what the page lets a player send is what the rules
take, and it says why before anything is sent.

One game on a 72 × 24 table: A's destroyer Lance at (36, 8) facing north and its scout Dart at
(44, 3) facing south at speed 2 (a speed-up of 2 carries it off the table), B's scout Shade at
(36, 16). B's first activation, if it has one, stands still on overwatch.

- Limits from the start: each of A's ships shows its turn limit and thrust beside its name in
  the orders form and on its record sheet before it is activated.
- The preview and the form agree: a turn beyond the limit, or a move off the table without
  "Allow leaving the table", turns Move off with the reason beside it; a legal one turns it on.
- Keys: the page lists them; N chooses the next ship, ? opens the list, P pings, O holds fire,
  Enter sends the move; none of them acts while typing in a field.
- The fire window gives each choice its odds (Lance's class-3 beam at 8 mu: 3BD* at a scout
  with no screen and no armour, 2.40 hits).
- Without JavaScript the server refuses the off-table move with its reason, and the form comes
  back as it was filled in (ship, speed change).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from app.deps import seat_cookie
from app.rules.movement import cinematic_limits
from tests.browser.conftest import OpenPage, Referee, api_post, create_and_claim, seat_view
from tests.conftest import LiveServer


def _at(ship: str, x: float, y: float, heading: int, speed: int) -> dict[str, Any]:
    return {"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": speed}


def a_to_activate(server: LiveServer) -> tuple[str, dict[str, str]]:
    game_id, tokens = create_and_claim(
        server,
        {
            "sides": {
                "A": {
                    "name": "Patrol",
                    "ships": [
                        {"name": "Lance", "design": "destroyer"},
                        {"name": "Dart", "design": "scout"},
                    ],
                },
                "B": {"name": "Raiders", "ships": [{"name": "Shade", "design": "scout"}]},
            },
            "table": {"width": 72, "height": 24},
            "creator": "A",
        },
    )
    here = f"/games/{game_id}/commands"
    a_ships = [_at("a1", 36, 8, 0, 0), _at("a2", 44, 3, 6, 2)]
    api_post(server, here, {"type": "deploy", "ships": a_ships}, tokens["A"])
    api_post(server, here, {"type": "deploy", "ships": [_at("b1", 36, 16, 6, 0)]}, tokens["B"])
    if seat_view(server, game_id, tokens["B"])["phase"]["side"] == "B":
        stay = {"type": "move", "ship": "b1", "orders": {"speed_change": 0, "turn": 0}}
        api_post(server, here, stay, tokens["B"])
        api_post(server, here, {"type": "end_activation", "ship": "b1"}, tokens["B"])
    assert seat_view(server, game_id, tokens["A"])["phase"]["step"] == "activate"
    return game_id, tokens


def seat_page(
    open_page: OpenPage, server: LiveServer, game_id: str, token: str, js: bool = True
) -> Page:
    page = open_page(js=js)
    page.context.add_cookies([{"name": seat_cookie(game_id), "value": token, "url": server.url}])
    page.goto(f"{server.url}/games/{game_id}")
    return page


def unfocus(page: Page) -> None:
    """No field, button or link holds the focus: a key press goes to the page itself."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")


def words(thrust: int, speed: int) -> str:
    lim = cinematic_limits(thrust)
    turns = f"turn ≤ {lim.max_turn}; |speed change| + |turn| ≤ {thrust}"
    return f"speed {speed}; {turns} (thrust {thrust})"


def test_orders_say_their_limits_refuse_what_the_rules_refuse_and_answer_keys(
    live_server: LiveServer, open_page: OpenPage, referee: Referee
) -> None:
    game_id, tokens = a_to_activate(live_server)
    mine = {
        s["id"]: s
        for s in seat_view(live_server, game_id, tokens["A"])["ships"]
        if s["side"] == "A"
    }
    page = seat_page(open_page, live_server, game_id, tokens["A"])
    form = page.locator("#orders-form")
    move = page.get_by_role("button", name="Move", exact=True)

    # limits before activation: beside each ship to name, and on each record sheet
    for sid, speed in (("a1", 0), ("a2", 2)):
        expect(form.locator(f"label:has(input[value='{sid}'])")).to_contain_text(
            words(mine[sid]["thrust"], speed)
        )
        expect(page.locator(f"[data-limits-for='{sid}']")).to_contain_text(
            words(mine[sid]["thrust"], speed)
        )
    expect(page.locator("#limits")).to_have_text(words(mine["a1"]["thrust"], 0))

    # a turn beyond Lance's limit: Move is off, with the rules' reason beside it
    over = cinematic_limits(mine["a1"]["thrust"]).max_turn + 1
    page.locator("input[name=turn]").fill(str(over))
    expect(move).to_be_disabled()
    expect(page.locator("#move-why")).to_contain_text(
        f"turn {over} exceeds this ship's limit of {over - 1}"
    )
    expect(page.locator("#preview-text")).to_contain_text("refused")
    # a letter typed in a field is text, not a key: N does not change the chosen ship
    page.locator("input[name=turn]").press("n")
    expect(page.locator("input[name=ship][value=a1]")).to_be_checked()
    page.locator("input[name=turn]").fill("0")
    expect(move).to_be_enabled()
    expect(page.locator("#move-why")).to_have_text("")

    # the keys: listed; ? opens the list; N chooses the next ship (its limits follow)
    unfocus(page)
    keys = page.locator("#keys")
    expect(keys.locator("summary")).to_have_text("Keys")
    page.keyboard.press("?")
    expect(keys.locator("li").first).to_be_visible()
    expect(keys).to_contain_text("P")
    unfocus(page)
    page.keyboard.press("n")
    expect(page.locator("input[name=ship][value=a2]")).to_be_checked()
    expect(page.locator("#limits")).to_have_text(words(mine["a2"]["thrust"], 2))

    # Dart off the table: refused until leaving is allowed
    page.locator("input[name=speed_change]").fill("2")
    expect(move).to_be_disabled()
    expect(page.locator("#move-why")).to_contain_text("ends off the table")
    page.get_by_label("Allow leaving the table").check()
    expect(move).to_be_enabled()
    page.get_by_label("Allow leaving the table").uncheck()
    expect(move).to_be_disabled()

    # without JavaScript the server refuses it, says why, and keeps what was filled in
    plain = seat_page(open_page, live_server, game_id, tokens["A"], js=False)
    plain.locator("input[name=ship][value=a2]").check()
    plain.locator("input[name=speed_change]").fill("2")
    seq = referee.view(game_id)["seq"]
    plain.get_by_role("button", name="Move", exact=True).click()
    expect(plain.locator("#action-error")).to_contain_text("this move ends off the table")
    expect(plain.locator("input[name=ship][value=a2]")).to_be_checked()
    expect(plain.locator("input[name=speed_change]")).to_have_value("2")
    assert referee.view(game_id)["seq"] == seq, "a refused move changed the game"

    # P pings with the chosen ship (Lance): the fire window, each choice with its odds
    page.locator("input[name=speed_change]").fill("0")
    page.locator("input[name=ship][value=a1]").check()
    unfocus(page)
    page.keyboard.press("p")
    fire = page.locator("#fire-form")
    expect(fire).to_be_visible()
    expect(fire.locator("[data-odds='a1|beam-1|b1']")).to_have_text("expect 2.40 hits, 2.40 damage")
    options = seat_view(live_server, game_id, tokens["A"])["phase"]["legal"]["fire_options"]
    shots = [o for o in options if "launch" not in o]
    expect(fire.locator("[data-odds]")).to_have_count(len(shots))
    unfocus(page)
    page.keyboard.press("o")  # hold fire
    expect(fire).to_have_count(0)
    window = seat_view(live_server, game_id, tokens["B"])["phase"]["legal"]
    if "fire" in window["commands"]:
        hold = {"type": "fire", "window": window["window"], "shots": []}
        api_post(live_server, f"/games/{game_id}/commands", hold, tokens["B"])

    # Lance's move: Enter sends it (the named ship's limits shown); having pinged, its
    # activation ends with the move
    expect(page.locator("#named-ship")).to_have_count(1)
    expect(page.locator("#limits")).to_have_text(words(mine["a1"]["thrust"], 0))
    unfocus(page)
    page.keyboard.press("Enter")
    expect(page.locator("#named-ship")).to_have_count(0)
    view = seat_view(live_server, game_id, tokens["B"])
    if view["phase"]["side"] == "B":
        here = f"/games/{game_id}/commands"
        stay = {"type": "move", "ship": "b1", "orders": {"speed_change": 0, "turn": 0}}
        api_post(live_server, here, stay, tokens["B"])
        api_post(live_server, here, {"type": "end_activation", "ship": "b1"}, tokens["B"])
    # Dart's move by Enter, then O ends its activation on overwatch
    expect(page.locator("input[name=ship][value=a2]")).to_be_checked()
    unfocus(page)
    page.keyboard.press("Enter")
    end = page.get_by_role("button", name="End activation — overwatch")
    expect(end).to_be_visible()
    unfocus(page)
    page.keyboard.press("o")
    expect(end).to_have_count(0)
    dart = next(s for s in referee.view(game_id)["ships"] if s["id"] == "a2")
    assert dart["overwatch"], dart  # (the turn may have ended since: "activated" is reset)
    assert "Drift" not in page.content(), "drift offered to ships in control"
