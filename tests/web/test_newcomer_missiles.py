"""A newcomer's review of missiles and point defence on the game page (issue 12; selected
backend). Each test shows one defect found by playing the "Missile duel" in a browser; each
fails until the page (or its words) is fixed, and its docstring names what the fix must do."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from app.web import mapview
from app.web.words import Teller
from tests.web import Browser, Game, api_view, send
from tests.web.test_weapon_forms import duel, form_with

BrowserFactory = Callable[[], Browser]

HM_AIM = {"x": 30.0, "y": 20.0}  # 12 mu ahead of Lance, in its fore arc


def _buttons(form: str) -> list[tuple[str, str]]:
    """(value, label) of each ``type`` submit button of a form."""
    found = re.findall(r'<button[^>]*name="type" value="(\w+)"[^>]*>(.*?)</button>', form, re.S)
    return [(value, re.sub(r"\s+", " ", label).strip()) for value, label in found]


async def _stay(client: httpx.AsyncClient, game: Game, seat: str, ship: str) -> None:
    """``ship`` moves on at speed 0 and goes on overwatch (its step 2 on standing orders)."""
    await send(client, game, seat, {"type": "move", "ship": ship, "orders": ZERO})
    if (await api_view(client, game, "admin"))["phase"]["step"] == "after_move":
        await send(client, game, seat, {"type": "end_activation", "ship": ship})


ZERO = {"speed_change": 0, "turn": 0}


async def heavy_missile_in_flight(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> tuple[Game, dict[str, Browser]]:
    """Lance (A, the heavy-missile destroyer preset) pings and launches a standard heavy missile
    12 mu ahead; the turn ends; in turn 2 it is A's turn to name a ship, with the missile due to
    act at Lance's step 2."""
    game, b = await duel(client, new_browser, "missile_destroyer")
    if (await api_view(client, game, "admin"))["phase"]["side"] == "B":
        await _stay(client, game, "B", "b1")
    await send(client, game, "A", {"type": "ping", "ship": "a1"})
    window = (await api_view(client, game, "admin"))["phase"]["fire"]["window"]
    shot = {"ship": "a1", "weapon": "hml-1", "aim": HM_AIM, "load": "standard"}
    await send(client, game, "A", {"type": "fire", "window": window, "shots": [shot]})
    if "B" in (await api_view(client, game, "admin"))["phase"]["awaiting"]:
        await send(client, game, "B", {"type": "fire", "window": window, "shots": []})
    await send(client, game, "A", {"type": "move", "ship": "a1", "orders": ZERO})
    if (await api_view(client, game, "admin"))["phase"]["side"] == "B":
        await _stay(client, game, "B", "b1")  # B's turn-1 activation
    phase = (await api_view(client, game, "admin"))["phase"]
    assert (await api_view(client, game, "admin"))["turn"] == 2, phase
    if phase["side"] == "B":
        await _stay(client, game, "B", "b1")  # B activates first in turn 2
    phase = (await api_view(client, game, "admin"))["phase"]
    assert phase["side"] == "A" and phase["step"] == "activate", phase
    missiles = (await api_view(client, game, "A"))["markers"]
    assert [m["kind"] for m in missiles] == ["heavy_missile"], missiles
    return game, b


async def test_step_two_orders_are_reachable_without_pinging_or_pressing_drift(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """Found: with a heavy missile in flight, A's page in the ``activate`` step offers only
    "Move" (standing orders: the missile holds), "Ping before moving" (reveals the ship) and
    "Drift (out of control)". The only way to give the missile a point without pinging is the
    drift button, which sends ``activate`` — a newcomer never presses a button that says the
    ship drifts. A fix must offer naming the ship for step 2 under words that say so (an
    "activate / give ordnance orders" button, or the markers form on the page at once), and keep
    "drift" for ships out of control."""
    game, b = await heavy_missile_in_flight(client, new_browser)
    page = (await b["A"].page(game.id)).text
    orders = form_with(page, 'id="orders-form"')
    activates = [label for value, label in _buttons(orders) if value == "activate"]
    plain = [label for label in activates if "out of control" not in label.lower()]
    assert 'id="markers-form"' in page or plain, (
        f"the one button that reaches step 2 without a ping is labelled {activates}"
    )


async def test_no_ping_button_once_step_two_has_run(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """Found: after Lance's step-2 orders are sent, its first ping is forfeit (RULES §4) and
    ``phase.legal.commands`` no longer holds ``ping``, yet the orders form still shows "Ping
    before moving"; pressing it gets a 409 refusal. A fix must show that button only while
    ``ping`` is legal (and may say instead that a ping is possible after the move)."""
    game, b = await heavy_missile_in_flight(client, new_browser)
    await send(client, game, "A", {"type": "activate", "ship": "a1"})
    missile = (await api_view(client, game, "A"))["markers"][0]["id"]
    orders = [{"marker": missile, "to": {"x": 30.0, "y": 24.0}}]
    await send(client, game, "A", {"type": "markers", "ship": "a1", "orders": orders})
    view = await api_view(client, game, "A")
    assert "ping" not in view["phase"]["legal"]["commands"], view["phase"]
    page = (await b["A"].page(game.id)).text
    form = form_with(page, 'id="orders-form"')
    assert ("ping", "Ping before moving") not in _buttons(form), _buttons(form)


async def test_the_step_two_form_says_which_heavy_missile_is_which(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """Found: the step-2 form lists each heavy missile as "heavy missile m-6672812b9c4f at
    (34.0, 23.0) — reaches 18 mu": with a standard and a needle missile in flight the owner
    cannot tell which to send where (the ids are random) nor how much endurance each has left.
    A fix must name the owner's own missile type (and its endurance) on each row; the type is
    the owner's secret, so only on the owner's page."""
    game, b = await heavy_missile_in_flight(client, new_browser)
    await send(client, game, "A", {"type": "activate", "ship": "a1"})
    page = (await b["A"].page(game.id)).text
    form = form_with(page, 'id="markers-form"')
    row = re.search(r'<div class="marker-order".*?</div>', form, re.S)
    assert row, form
    assert "standard" in row.group(0), row.group(0)


# -- the log's words -------------------------------------------------------------------------------
SHIPS: list[Mapping[str, Any]] = [
    {"id": "a1", "name": "Salvo", "side": "A"},
    {"id": "a2", "name": "Aegis", "side": "A"},
    {"id": "b3", "name": "Ember", "side": "B"},
]
NAMES = {"A": "Escort group", "B": "Strike group"}


def _tell(seat: str, kind: str, data: dict[str, Any]) -> str:
    return Teller(SHIPS, seat, NAMES).tell({"seq": 67, "turn": 1, "type": kind, "data": data})


def test_a_torpedo_shot_down_is_not_told_as_a_detonation() -> None:
    """Found: Aegis's PDS destroyed Ember's antimatter torpedo (``amt_detonated`` with
    ``destroyed: true``, no blasts), and both logs said "Ember's antimatter torpedo detonated and
    caught no ship." — it never detonated. A fix must tell a destroyed torpedo as destroyed by
    the defences (as the heavy missile's sentence does), and keep "caught no ship" for a torpedo
    that did burst with no ship in reach."""
    shot_down = {"marker": "m-7ded56eaa494", "ship": "b3", "destroyed": True, "blasts": []}
    for seat in ("A", "B"):
        text = _tell(seat, "amt_detonated", shot_down)
        assert "detonated" not in text and "destroyed" in text, (seat, text)


def test_no_ordnance_removed_when_the_destroyed_ship_had_none_in_flight() -> None:
    """Found: Ember (no marker in flight) was destroyed and its owner's log said "Ordnance
    removed: its mother ship was destroyed." for a ``marker_removed`` event with no markers.
    A fix must tell the owner nothing was removed (or tell nothing), and say "removed" only when
    something was."""
    text = _tell("B", "marker_removed", {"ship": "b3", "reason": "mother_destroyed", "markers": []})
    assert "removed" not in text.lower(), text


def test_a_volley_of_launches_is_not_told_as_nobody_fired() -> None:
    """Found: in a fire window where five launchers launched and no gun fired, both logs say
    "The volley: nobody fired." and then five lines of launches. A fix must not say nobody fired
    when the window had launches (for instance "no direct fire" or a sentence counting the
    launches); the order of the events stays (``fire_resolved`` before ``ordnance_launched``)."""
    events = [
        {"seq": 17, "turn": 1, "type": "fire_resolved", "data": {"window": 10, "shots": []}},
        {
            "seq": 18,
            "turn": 1,
            "type": "ordnance_launched",
            "data": {"ship": "a1", "launcher": "sml-1", "kind": "salvo"},
            "redacted": True,
        },
    ]
    for seat in ("A", "B"):
        told = Teller(SHIPS, seat, NAMES).tell_all(events)
        assert "launched" in told[1], told
        assert "nobody fired" not in " ".join(told), (seat, told)


# -- the map's ordnance (smaller findings) -----------------------------------------------------
def _enemy_view(markers: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "you": "B",
        "movement": "cinematic",
        "ships": [
            {"id": "a1", "name": "Lance", "side": "A", "revealed": "unseen"},
            {
                "id": "b1",
                "name": "Vigilant",
                "side": "B",
                "revealed": "stale",
                "position": {"x": 40.0, "y": 30.0},
                "last_known": {"x": 10.0, "y": 10.0, "heading": 0, "turn": 1},
            },
        ],
        "phase": {"legal": {"commands": []}},
        "markers": markers,
    }


def test_an_enemy_marker_without_a_position_is_drawn_beside_its_target() -> None:
    """The engine's coming public form of a live enemy marker has no ``position``, only its
    target: the map draws it beside where the seat's map shows that ship (here the seat's own
    ship's true position), two at one target side by side, each labelled with the id the
    defence form uses."""
    public = {"side": "A", "kind": "salvo", "strength": 6, "live": True, "target": "b1"}
    view = _enemy_view([{**public, "id": "m-1"}, {**public, "id": "m-2", "kind": "amt"}])
    first, second = mapview.ordnance(view, 48.0)
    assert first["role"] == "enemy" and first["tag"] == "m-1" and first["target"] == "Vigilant"
    assert math.hypot(first["x"] - 40.0, first["y"] - 18.0) < 5, first
    assert (first["x"], first["y"]) != (second["x"], second["y"])
    assert first["aim"] is None and not first["seeker"] and first["mother"] is None


def test_close_markers_stack_their_labels() -> None:
    """Two markers a mu apart: their labels one above the other, not over each other."""
    at = {"side": "A", "kind": "salvo", "live": True}
    view = _enemy_view(
        [
            {**at, "id": "m-1", "position": {"x": 20.0, "y": 20.0}},
            {**at, "id": "m-2", "position": {"x": 20.5, "y": 20.5}},
            {**at, "id": "m-3", "position": {"x": 60.0, "y": 20.0}},
        ]
    )
    drawn = mapview.ordnance(view, 48.0)
    assert drawn[0]["label_y"] != drawn[1]["label_y"]
    assert drawn[2]["label_y"] == drawn[0]["label_y"]


async def test_a_ship_with_nothing_in_flight_is_told_nothing_acts(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """Lance named in turn 1 (no missile in flight yet): its step 2 has nothing to order, so the
    page says nothing acts this turn instead of drawing an empty step-2 form."""
    game, b = await duel(client, new_browser, "missile_destroyer")
    if (await api_view(client, game, "admin"))["phase"]["side"] == "B":
        await _stay(client, game, "B", "b1")
    await send(client, game, "A", {"type": "activate", "ship": "a1"})
    legal = (await api_view(client, game, "A"))["phase"]["legal"]
    assert not legal.get("markers"), legal
    page = (await b["A"].page(game.id)).text
    assert 'id="markers-form"' not in page and "nothing of Lance's acts" in page


async def test_the_record_sheet_lists_launchers_with_arcs_and_reach(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """The weapons table has a row per launcher: its arcs and how far what it launches
    reaches (a heavy missile 18 mu)."""
    game, b = await duel(client, new_browser, "missile_destroyer")
    page = (await b["A"].page(game.id)).text
    row = re.search(r'<tr class="launcher[^"]*"><th scope="row">hml-1 .*?</tr>', page, re.S)
    assert row and "<td>F</td>" in row.group(0) and "heavy missile ≤18" in row.group(0), row
