"""The game page says what it shows, in Chromium (issue 10, "pages that mislead").

- The map's markers mean own / enemy for whoever looks, by colour and by shape: B's own ships
  are drawn like A's own ships (the "own" class, the own dart, the own colour) and the legend's
  keys are the same drawings; spectators and the referee see the sides by name, each side with
  its own shape.
- The fire window offers one choice per weapon (a radio group with "hold"), so one weapon cannot
  be given two targets; a crafted post that does it anyway is told so, not "already fired".
- A side that nothing of can reach a revealed enemy still answers the window itself, and the
  window says why, every time.

The game: A's destroyer Lance 10 mu south of B's two scouts (no ECM, so a ping always finds them);
every ship starts on overwatch, so Lance's ping opens a window for both sides. Screenshots:
``artifacts/screenshots/10-fire-window-A.png`` and ``10-fire-window-B.png``.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from app.deps import seat_cookie
from tests.browser.conftest import (
    SHOTS,
    OpenPage,
    Referee,
    api_post,
    create_and_claim,
    screenshot,
    seat_view,
)
from tests.conftest import ADMIN, LiveServer

SIDE_NAMES = {"A": "Patrol", "B": "Raiders"}


def fire_window(
    server: LiveServer, b_ships: list[tuple[str, tuple[float, float]]]
) -> tuple[str, dict[str, str]]:
    """A's destroyer Lance at (36, 8) facing north against B's scouts (name, position), all at
    speed 0 on a 72 × 24 table; B's ships activate first if the dice say so (standing still and
    back on overwatch), then Lance pings before moving. Returns (game id, seat tokens)."""
    game_id, tokens = create_and_claim(
        server,
        {
            "sides": {
                "A": {
                    "name": SIDE_NAMES["A"],
                    "ships": [{"name": "Lance", "design": "destroyer"}],
                },
                "B": {
                    "name": SIDE_NAMES["B"],
                    "ships": [{"name": name, "design": "scout"} for name, _ in b_ships],
                },
            },
            "table": {"width": 72, "height": 24},
            "creator": "A",
        },
    )
    here = f"/games/{game_id}/commands"
    placement = {"ship": "a1", "position": {"x": 36, "y": 8}, "heading": 0, "speed": 0}
    api_post(server, here, {"type": "deploy", "ships": [placement]}, tokens["A"])
    b_placements = [
        {"ship": f"b{i}", "position": {"x": x, "y": y}, "heading": 6, "speed": 0}
        for i, (_, (x, y)) in enumerate(b_ships, start=1)
    ]
    api_post(server, here, {"type": "deploy", "ships": b_placements}, tokens["B"])
    for _ in range(len(b_ships)):
        phase = seat_view(server, game_id, tokens["B"])["phase"]
        if phase["side"] != "B":
            break
        ship = phase["legal"]["activatable"][0]
        stay = {"type": "move", "ship": ship, "orders": {"speed_change": 0, "turn": 0}}
        api_post(server, here, stay, tokens["B"])
        api_post(server, here, {"type": "end_activation", "ship": ship}, tokens["B"])
    assert seat_view(server, game_id, tokens["A"])["phase"]["side"] == "A"
    api_post(server, here, {"type": "ping", "ship": "a1"}, tokens["A"])
    return game_id, tokens


def seat_page(open_page: OpenPage, server: LiveServer, game_id: str, token: str | None) -> Page:
    """A browser holding ``token`` as this game's seat cookie (None: a spectator)."""
    page = open_page()
    if token is not None:
        page.context.add_cookies(
            [{"name": seat_cookie(game_id), "value": token, "url": server.url}]
        )
    page.goto(f"{server.url}/games/{game_id}")
    return page


def marker(page: Page, ship: str) -> dict[str, Any]:
    """A ship's marker on the map: its classes, its outline and the colour it is filled with."""
    result: dict[str, Any] = page.evaluate(
        """ship => {
            const g = document.querySelector(`#map g.ship[data-ship="${ship}"]`);
            if (!g) return null;
            const mark = g.querySelector(".hullmark");
            return {classes: [...g.classList], d: mark.getAttribute("d"),
                    fill: getComputedStyle(mark).fill, dash: getComputedStyle(mark).strokeDasharray,
                    label: g.querySelector(".label").textContent};
        }""",
        ship,
    )
    assert result is not None, f"no marker of {ship} on the map"
    return result


def legend(page: Page) -> list[dict[str, Any]]:
    """The legend's lines: the text and the key's drawing (outline, fill) of each."""
    result: list[dict[str, Any]] = page.evaluate(
        """() => [...document.querySelectorAll(".legend li")].map(li => {
            const mark = li.querySelector(".hullmark");
            return {text: li.textContent.trim(), d: mark ? mark.getAttribute("d") : null,
                    fill: mark ? getComputedStyle(mark).fill : null,
                    classes: mark ? [...mark.closest(".ship").classList] : []};
        })"""
    )
    return result


def key_for(lines: list[dict[str, Any]], words: str) -> dict[str, Any]:
    found = [line for line in lines if words in line["text"]]
    assert found, f"no legend line says {words!r}: {[line['text'] for line in lines]}"
    return found[0]


# -- own and enemy, by colour and shape -----------------------------------------------------------
def test_own_and_enemy_markers_mean_the_same_on_both_players_pages(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    game_id, tokens = fire_window(live_server, [("Dart", (30.0, 16.0)), ("Flit", (42.0, 16.0))])
    pages = {seat: seat_page(open_page, live_server, game_id, tokens[seat]) for seat in "AB"}
    own_ships = {"A": ["a1"], "B": ["b1", "b2"]}
    enemy_ships = {"A": ["b1", "b2"], "B": ["a1"]}
    drawn: dict[str, dict[str, Any]] = {}
    for seat, page in pages.items():
        lines = legend(page)
        own_key = key_for(lines, "your ship")
        enemy_key = key_for(lines, "enemy revealed now")
        assert own_key["d"] and enemy_key["d"] and own_key["d"] != enemy_key["d"], lines
        assert own_key["fill"] != enemy_key["fill"], lines
        for ship in own_ships[seat]:
            m = marker(page, ship)
            assert "own" in m["classes"] and "enemy" not in m["classes"], (seat, ship, m)
            # the marker is the legend's own key: the same outline and the same colour
            assert (m["d"], m["fill"]) == (own_key["d"], own_key["fill"]), (seat, ship, m, own_key)
        for ship in enemy_ships[seat]:
            m = marker(page, ship)
            assert "enemy" in m["classes"] and "own" not in m["classes"], (seat, ship, m)
            assert (m["d"], m["fill"]) == (enemy_key["d"], enemy_key["fill"]), (seat, ship, m)
        drawn[seat] = {"own": own_key, "enemy": enemy_key}
        page.locator(f'#map g.ship[data-ship="{own_ships[seat][0]}"]').press("Enter")  # its arcs
        screenshot(page, f"10-fire-window-{seat}")
        page.locator(".mapcol").screenshot(path=str(SHOTS / f"10-map-{seat}.png"))
    # and "own" looks the same whoever looks: B's own ships are not drawn in A's enemy colour
    for kind in ("own", "enemy"):
        assert drawn["A"][kind]["d"] == drawn["B"][kind]["d"], kind
        assert drawn["A"][kind]["fill"] == drawn["B"][kind]["fill"], kind


def test_spectator_and_referee_see_the_sides_by_name_and_shape(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    game_id, _ = fire_window(live_server, [("Dart", (30.0, 16.0)), ("Flit", (42.0, 16.0))])
    for who, token in (("spectator", None), ("referee", ADMIN)):
        page = seat_page(open_page, live_server, game_id, token)
        lines = legend(page)
        keys = {side: key_for(lines, f"{SIDE_NAMES[side]} (side {side})") for side in "AB"}
        assert keys["A"]["d"] != keys["B"]["d"], (who, lines)
        assert keys["A"]["fill"] != keys["B"]["fill"], (who, lines)
        assert not any("your" in line["text"] for line in lines), (who, lines)
        for ship, side in (("a1", "A"), ("b1", "B"), ("b2", "B")):
            m = marker(page, ship)
            assert f"side-{side}" in m["classes"], (who, ship, m)
            assert "own" not in m["classes"] and "enemy" not in m["classes"], (who, ship, m)
            assert (m["d"], m["fill"]) == (keys[side]["d"], keys[side]["fill"]), (who, ship, m)
            assert (
                SIDE_NAMES[side]
                in page.locator(f'#map g.ship[data-ship="{ship}"] title').text_content()
            ), (who, ship)


# -- one choice per weapon -------------------------------------------------------------------------
def test_each_weapon_takes_one_target_or_holds_with_and_without_javascript(
    live_server: LiveServer, open_page: OpenPage, referee: Referee
) -> None:
    game_id, tokens = fire_window(live_server, [("Dart", (30.0, 16.0)), ("Flit", (42.0, 16.0))])
    for seat, js in (("A", True), ("B", False)):
        page = open_page(js=js)
        page.context.add_cookies(
            [{"name": seat_cookie(game_id), "value": tokens[seat], "url": live_server.url}]
        )
        page.goto(f"{live_server.url}/games/{game_id}")
        form = page.locator("#fire-form")
        expect(form).to_be_visible()
        expect(form.locator("input[type=checkbox]")).to_have_count(0)
        groups = form.locator("fieldset.weapon-choice")
        expect(groups.first).to_be_visible()
        for i in range(groups.count()):  # every weapon starts on "hold"
            expect(groups.nth(i).get_by_label("Hold — do not fire")).to_be_checked()
        if seat == "A":
            # Lance's beam-1 reaches both scouts: choosing Flit after Dart un-chooses Dart
            beam = form.locator("fieldset.weapon-choice", has_text="Lance beam-1")
            beam.locator('input[value="a1|beam-1|b1"]').check()
            beam.locator('input[value="a1|beam-1|b2"]').check()
            expect(beam.locator('input[value="a1|beam-1|b1"]')).not_to_be_checked()
            expect(beam.locator("input:checked")).to_have_count(1)
            chosen = [("a1", "beam-1", "b2")]
        else:
            # without JavaScript: the form posts and the page reloads
            form.locator('input[value="b1|beam-1|a1"]').check()
            chosen = [("b1", "beam-1", "a1")]
        with page.expect_response(lambda r: r.request.method == "POST") as posted:
            form.get_by_role("button", name="Fire the chosen shots").click()
        assert posted.value.status == (200 if js else 303), posted.value
        expect(page.locator("#log")).to_contain_text("You declared 1 shot.")
        declared = [e for e in referee.events(game_id) if e["type"] == "fire_declared"][-1]["data"]
        assert declared["side"] == seat
        assert [(s["ship"], s["weapon"], s["target"]) for s in declared["shots"]] == chosen


# -- nothing in reach: the player still answers ----------------------------------------------------
NOTHING_IN_REACH = "None of your weapons can reach a revealed enemy now."
WHY_ANSWER = "an automatic answer would tell your opponent that nothing of yours is in range"


def test_a_side_with_nothing_in_reach_is_told_why_it_still_answers_every_window(
    live_server: LiveServer, open_page: OpenPage, referee: Referee
) -> None:
    """B's lone scout stands 15 mu from Lance, beyond its class-1 beams' 12 mu. Lance's ping
    reveals it; B is awaited (on overwatch, with ready weapons, a live enemy: public facts) but
    has no shot. The window says so and why B must still press "Hold fire"; nothing answers for
    B meanwhile. Lance then moves (and, in a new turn, moves again), and the scout pings: the
    same words in the next window."""
    game_id, tokens = fire_window(live_server, [("Far", (36.0, 23.0))])
    page = seat_page(open_page, live_server, game_id, tokens["B"])
    for window in (1, 2):
        form = page.locator("#fire-form")
        expect(form).to_be_visible()
        expect(form.locator("fieldset.weapon-choice")).to_have_count(0)
        note = form.locator(".nothing-in-reach")
        expect(note).to_contain_text(NOTHING_IN_REACH)
        expect(note).to_contain_text("You still answer the window yourself")
        expect(note).to_contain_text(WHY_ANSWER)
        expect(note).to_contain_text("Hold fire")
        if window == 1:
            screenshot(page, "10-nothing-in-reach-B")
        # nobody answers for B: the window still waits after a while
        page.wait_for_timeout(1500)
        assert "B" in referee.view(game_id)["phase"]["awaiting"]
        with page.expect_response(lambda r: r.request.method == "POST") as posted:
            form.get_by_role("button", name="Hold fire").click()
        assert posted.value.status == 200
        expect(page.locator("#log")).to_contain_text("You held fire.")
        if window == 1:
            # A holds too; Lance pinged before moving: it moves now (standing still), and its
            # activation ends; then B's scout pings and reveals it again (no ECM on a destroyer)
            here = f"/games/{game_id}/commands"
            a_window = seat_view(live_server, game_id, tokens["A"])["phase"]["legal"]["window"]
            api_post(
                live_server, here, {"type": "fire", "window": a_window, "shots": []}, tokens["A"]
            )
            stay = {"type": "move", "ship": "a1", "orders": {"speed_change": 0, "turn": 0}}
            api_post(live_server, here, stay, tokens["A"])
            if referee.view(game_id)["phase"]["side"] == "A":  # a new turn, A first
                api_post(live_server, here, stay, tokens["A"])
                api_post(live_server, here, {"type": "end_activation", "ship": "a1"}, tokens["A"])
            api_post(live_server, here, {"type": "ping", "ship": "b1"}, tokens["B"])
            assert "B" in referee.view(game_id)["phase"]["awaiting"]
