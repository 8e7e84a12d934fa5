"""Pages: lobby, invite, join, seat re-entry, the game page and its htmx fragments, actions.

Everything works without JavaScript (forms post and redirect); with it, htmx swaps fragments
when the live stream says the game moved on, and the map previews orders before they are sent.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2_fragments.fastapi import Jinja2Blocks
from markupsafe import Markup, escape
from starlette.datastructures import FormData

from app.deps import ADMIN_COOKIE, CommandsDep, DbDep, LobbyDep, ReadingDep, cookie_token
from app.play import errors as E
from app.play import inputs
from app.play.computer import LEVELS
from app.play.designs import load as load_design
from app.play.designs import presets
from app.play.errors import RULES_STATUS
from app.play.lobby import NewGame, NewShip, NewSide
from app.play.reading import Reading
from app.rules.commands import (
    COMMANDS,
    Activate,
    Command,
    CoreAction,
    Deploy,
    EndActivation,
    Fire,
    Markers,
    Move,
    Ping,
    Resign,
    SetMode,
)
from app.rules.damage import CORE_TYPES
from app.rules.designs import PRESET_DESIGNS
from app.rules.errors import RulesError, StaleState
from app.rules.fighters.commands import Fighters
from app.rules.game import MOVEMENTS
from app.rules.movement import Movement
from app.rules.ordnance.defence_commands import Defend, StandingOrders
from app.rules.scenarios import PRESET_SCENARIOS
from app.rules.systems import HEAVY_MISSILE_TYPES, LAUNCHER_TYPES, REACH, SYSTEMS, system_label
from app.store.db import Database
from app.web import clocks as web_clocks
from app.web import forms, grammar, groups, hulls, limits, mapfx, mapview, odds, seat_links
from app.web.browser import move_legacy
from app.web.security import CsrfFailed, check_csrf, csrf_token, issue_cookies, set_seat
from app.web.words import CLOCK, Teller, odds_words

ROOT = Path(__file__).resolve().parents[2]
NEEDLE = "needle"  # the heavy missile that names a system type at launch
templates = Jinja2Blocks(directory=str(ROOT / "templates"))


def _system_pending(system_type: str) -> str:
    row = SYSTEMS.get(system_type)
    return (row.pending or "") if row else ""


def _system_name(view: Mapping[str, Any], ship_id: str, system_id: str) -> str:
    """``fc-1 (fire control)``: a system of a ship in the view, named for a needle's aim."""
    for ship in view["ships"]:
        if ship["id"] == ship_id:
            for system in ship["systems"]:
                if system["id"] == system_id:
                    return f"{system_id} ({system_label(system['type'])})"
    return system_id


def _group_name(view: Mapping[str, Any], marker_id: str) -> str:
    """``the fighter group m-…`` for a group in the view (its type once the view shows it)."""
    for m in view.get("markers", []):
        if m["id"] == marker_id:
            return f"the {mapview.kind_words(m['kind'], m.get('type'))} {marker_id}"
    return marker_id


def _launchers(ship: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The record sheet's launcher rows: id, type, arcs, what it launches with each reach (an
    anti-fighter salvo, a defence-window load, left out) and its state this game."""
    state = {s["id"]: s for s in ship["systems"]}
    rows = []
    for spec in ship["design"]["systems"]:
        row = SYSTEMS.get(spec["type"])
        if spec["type"] not in LAUNCHER_TYPES or row is None:
            continue
        fires = [spec.get("load") or "heavy_missile"] if row.rack else list(row.fires)
        kinds = dict.fromkeys("heavy_missile" if f in HEAVY_MISSILE_TYPES else f for f in fires)
        sys = state.get(spec["id"], {})
        rows.append(
            {
                "id": spec["id"],
                "type": spec["type"],
                "arcs": spec.get("arcs", []),
                "reach": [(k, REACH[k]) for k in kinds if k in REACH and k != "af_salvo"],
                "magazine": spec.get("magazine"),
                "state": "spent"
                if sys.get("spent")
                else (sys.get("status", "ok") if sys.get("status") != "ok" else "ready"),
            }
        )
    return rows


templates.env.globals["launchers"] = _launchers
templates.env.filters["system_label"] = system_label
templates.env.globals["ring_radii"] = mapview.rings
templates.env.filters["system_pending"] = _system_pending
templates.env.filters["kind_words"] = mapview.kind_words
templates.env.globals["hull_words"] = hulls.WORDS


def _compact_json(value: Any) -> Markup:
    """JSON for a data attribute without spaces after separators: a pair of map coordinates then
    never reads as the "x, y" a player sees in text (the leak checks look for that form)."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return Markup(escape(text))


templates.env.filters["compact_json"] = _compact_json
templates.env.globals["odds_words"] = odds_words
templates.env.globals["auto_defend"] = lambda view: auto_defend(view)
templates.env.globals["out_of_control"] = lambda ships: _out_of_control(ships)
templates.env.globals["bays"] = groups.bays
templates.env.globals["bay_hardware"] = groups.bay_hardware
templates.env.filters["group_type_words"] = groups.type_words
templates.env.filters.update(grammar.FILTERS)  # possessive, plural, cap (issue 16)
templates.env.globals["group_row"] = groups.group_type
templates.env.globals["step2_ships"] = groups.step2_ships
templates.env.globals["fire_odds"] = odds.fire_odds  # issue 16: the odds of each choice
templates.env.globals["ship_limits"] = limits.ship_limits
templates.env.globals["limits_words"] = limits.limits_words
templates.env.globals["mu"] = lambda a, b: math.hypot(b["x"] - a["x"], b["y"] - a["y"])
router = APIRouter(include_in_schema=False)

FRAGMENTS = ("status", "map", "controls", "sheets", "log", "shiplist")
NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


def _page(
    request: Request,
    name: str,
    context: dict[str, Any],
    status: int = 200,
    block: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    context = {"request": request, "csrf": csrf_token(request), "clock": CLOCK, **context}
    response: Response
    if block is None:
        response = templates.TemplateResponse(request, name, context, status_code=status)
    else:
        response = templates.TemplateResponse(
            request, name, context, status_code=status, block_name=block
        )
    response.headers.update({**NO_STORE, **(headers or {})})
    issue_cookies(request, response)
    return response


def _problem_text(error: Exception) -> str:
    if isinstance(error, RulesError | E.Problem):
        return error.detail
    return "something went wrong"


async def csrf_failed_page(request: Request, error: Exception) -> Response:
    """A refused form gets a page that says what to do, not a JSON body."""
    assert isinstance(error, CsrfFailed)
    if request.headers.get("HX-Request") == "true":
        # never swap a whole page into a block: reload it, which also renews the CSRF cookie
        return Response(status_code=403, headers={"HX-Refresh": "true", **NO_STORE})
    return _page(request, "message.html", {"title": error.title, "text": error.detail}, 403)


def problem_page(request: Request, status: int, title: str, detail: str) -> Response:
    """A refusal a page's route raised outside its own handling (a field no text may hold, a
    value the database cannot store): a page saying what to fix, not a JSON body."""
    if request.headers.get("HX-Request") == "true":
        # a block's request: the whole page again shows the refusal's page instead of a block
        return Response(status_code=status, headers={"HX-Refresh": "true", **NO_STORE})
    return _page(request, "message.html", {"title": title, "text": detail}, status)


# -- lobby -----------------------------------------------------------------------------------------
MAX_SAVED_IN_LOBBY = 8


@router.get("/", response_model=None)
async def lobby(request: Request, db: DbDep) -> Response:
    return _page(request, "lobby.html", await _lobby_context(request, db))


async def _lobby_context(
    request: Request,
    db: Database,
    error: str | None = None,
    form: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The lobby's choices, with the saved designs asked for (``?design=<id>``, repeatable) or
    kept in a refused form offered in every ship list under their names."""
    form = form or {}
    candidates = list(request.query_params.getlist("design"))
    candidates += [str(form.get(f"{side}_design_{i}", "")) for side in "AB" for i in range(1, 5)]
    saved: dict[str, str] = {}
    for value in (c.strip() for c in candidates):
        if not value or len(value) > 64 or value in PRESET_DESIGNS or value in saved:
            continue
        if len(saved) >= MAX_SAVED_IN_LOBBY:
            break
        try:
            design = await load_design(db, value)
            saved[value] = (
                f"{design.name} ({design.hull_class}, mass {design.mass}, thrust "
                f"{design.thrust}, {design.points()} pts) — saved {value}"
            )
        except E.Problem:
            saved[value] = f"unknown design {value}"
    return {
        "scenarios": list(PRESET_SCENARIOS.values()),
        "designs": presets()["designs"],
        "error": error,
        "form": form,
        "saved_designs": saved,
        "clock_presets": web_clocks.PRESETS,
    }


def _new_game_from_form(form: FormData) -> NewGame:
    def text(name: str, default: str = "") -> str:
        value = _field(form, name)
        return value.strip() if value is not None else default

    mode = text("mode", "scenario")
    movement = text("movement", Movement.CINEMATIC)
    creator = text("seat", "A")
    if movement not in MOVEMENTS:
        raise E.Invalid("choose cinematic or vector movement")
    if creator not in ("A", "B", "referee"):
        raise E.Invalid("choose your seat: side A, side B or referee")
    opponent = text("opponent", "human")
    if opponent not in ("human", *LEVELS):
        raise E.Invalid("choose your opponent: a person, or the computer as cadet or captain")
    common = {
        "opponent": None if opponent == "human" else opponent,
        "movement": movement,
        "creator": creator,
        "creator_name": text("name")[:80] or None,
        "spectators": form.get("spectators") == "on",
        "clock": web_clocks.preset(text("clock", "none")),  # issue 15: clocks
    }
    if mode == "scenario":
        return NewGame(scenario=text("scenario", "duel"), **common)  # type: ignore[arg-type]
    sides = {}
    for side in ("A", "B"):
        ships = []
        for i in range(1, 5):
            design = text(f"{side}_design_{i}")
            if design:
                name = text(f"{side}_name_{i}") or f"{side}{i}"
                ships.append(NewShip(name[:80], design))
        if not ships:
            raise E.Invalid(f"pick at least one ship for side {side}")
        sides[side] = NewSide(text(f"{side}_side_name")[:80] or None, ships)
    return NewGame(sides=sides, **common)  # type: ignore[arg-type]


@router.post("/games", response_model=None)
async def create(request: Request, lobby: LobbyDep, db: DbDep) -> Response:
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    try:
        created = await lobby.create_game(_new_game_from_form(form))
    except (E.Problem, RulesError) as error:
        context = await _lobby_context(request, db, _problem_text(error), form)
        return _page(request, "lobby.html", context, 422)
    game_id = created["game_id"]
    if not created["invites"]:  # the computer took the other side: straight to the table
        to_table = RedirectResponse(f"/games/{game_id}", status_code=303)
        await set_seat(request, to_table, game_id, created["token"])
        return to_table
    links = {
        side: str(request.url_for("join", code=code)) for side, code in created["invites"].items()
    }
    response = _page(
        request,
        "invite.html",
        {"game_id": game_id, "side": created["side"], "links": links},
        status=201,
    )
    await set_seat(request, response, game_id, created["token"])
    return response


def _field(form: FormData, name: str) -> str | None:
    """A form field's text; ``Invalid`` (422) naming the field for text no field may hold
    (a NUL: the database cannot store it; a form's bytes cannot spell a lone surrogate)."""
    value = form.get(name)
    if not isinstance(value, str):
        return None
    fault = inputs.text_fault(value)
    if fault is not None:
        raise E.Invalid(f"{name.replace('_', ' ')}: {fault}")
    return value


# -- joining ---------------------------------------------------------------------------------------
@router.get("/join/{code}", response_model=None, name="join")
async def join_page(code: str, request: Request, lobby: LobbyDep, reading: ReadingDep) -> Response:
    try:
        offer = await lobby.peek_invite(code, lambda game_id: cookie_token(request, game_id))
    except E.Problem as error:
        return _page(
            request, "message.html", {"title": error.title, "text": error.detail}, error.status
        )
    link = str(request.url_for("join", code=code))
    presence = await reading.presence(offer["game_id"], detailed=False)
    context = {"offer": offer, "code": code, "link": link, "presence": presence}
    return _page(request, "join.html", context)


@router.post("/join/{code}", response_model=None)
async def join(code: str, request: Request, lobby: LobbyDep) -> Response:
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    name = (_field(form, "name") or "").strip()[:80] or None
    try:
        # a browser that holds a seat of this game keeps it: the invite stays for its player
        result = await lobby.claim(code, name, lambda game_id: cookie_token(request, game_id))
    except E.Problem as error:
        back = error.extra.get("game_id") if isinstance(error, E.AlreadySeated) else None
        context = {"title": error.title, "text": error.detail, "back": back}
        return _page(request, "message.html", context, error.status)
    response = RedirectResponse(f"/games/{result['game_id']}", status_code=303, headers=NO_STORE)
    await set_seat(request, response, result["game_id"], result["token"])
    return response


@router.get("/seat/{token}", response_model=None, name="seat")
async def seat(token: str, request: Request, lobby: LobbyDep) -> Response:
    """A page naming the seat a link opens; nothing changes until it is confirmed (a link
    pasted by mistake, or sent by the opponent, must not swap this browser's seat)."""
    token = await seat_links.credential(request, token)
    try:
        offer = await lobby.seat_of_token(token, lambda game_id: cookie_token(request, game_id))
    except E.Problem as error:
        return _page(
            request, "message.html", {"title": error.title, "text": error.detail}, error.status
        )
    refused = offer["held_seat"] not in (None, offer["side"])
    context = {"offer": offer, "refused": refused}
    return _page(request, "seat_confirm.html", context, 409 if refused else 200)


@router.post("/seat", response_model=None)
@router.post("/seat/{token}", response_model=None)
async def seat_confirm(request: Request, lobby: LobbyDep) -> Response:
    """The confirmation. The page's form has no action: it posts back to ``/seat/{token}``, the
    address the person opened, so the page's HTML never holds the token; ``POST /seat`` with
    the token in the body does the same (never in a further URL)."""
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    token = request.path_params.get("token") or _field(form, "token") or ""
    token = await seat_links.credential(request, token)
    try:
        offer = await lobby.seat_of_token(token, lambda game_id: cookie_token(request, game_id))
    except E.Problem as error:
        return _page(
            request, "message.html", {"title": error.title, "text": error.detail}, error.status
        )
    game_id = offer["game_id"]
    if offer["held_seat"] not in (None, offer["side"]):
        context = {"offer": offer, "refused": True}
        return _page(request, "seat_confirm.html", context, 409)
    response = RedirectResponse(f"/games/{game_id}", status_code=303, headers=NO_STORE)
    await set_seat(request, response, game_id, token)
    return response


# -- the game page ---------------------------------------------------------------------------------
async def _seen(
    request: Request, reading: Reading, game_id: str
) -> tuple[str | None, dict[str, Any]]:
    """The page's credential and the view it shows: a stale seat cookie (the seat was
    replaced) shows the public view, if there is one, as no seat."""
    token = cookie_token(request, game_id)
    try:
        return token, await reading.view(game_id, token)
    except E.Unauthorized:
        if token is None:
            raise
        return None, await reading.view(game_id, None)


def _log(view: Mapping[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log block's lines, newest first, each event told in words for the seat."""
    teller = Teller(view["ships"], view["you"], view["side_names"])
    texts = teller.tell_all(events)  # in order: a ping's words depend on what was revealed
    return [
        {
            "seq": e["seq"],
            "turn": e["turn"],
            "type": e["type"],
            "text": text,
            "voided": e.get("voided", False),
        }
        for e, text in reversed(list(zip(events, texts, strict=True)))
        if text  # an event told as nothing for this seat (``marker_removed`` of nothing)
    ]


def _helpers(view: Mapping[str, Any], marks: Mapping[str, str]) -> dict[str, Any]:
    """The functions the blocks call: their refresh attributes, and names for sides, ships and
    systems as the seat should read them."""
    gid = view["game_id"]
    seat = view["you"]
    names = {s["id"]: s["name"] for s in view["ships"]}

    def refresh(name: str, also: str = "") -> Markup:
        # each block refreshes itself when the live stream says the game moved on (or sends
        # one of the events in ``also``); the key
        # lets the server answer 204 when the block would come out the same; a hint that
        # arrives while a refresh is out replaces it (htmx would queue it on the element the
        # swap removes, and the page would stay behind until the next move)
        triggers = ", ".join(filter(None, ("sse:seq", also, "pd-refresh from:body")))
        return Markup(
            f'hx-get="/games/{gid}/fragments/{name}" hx-trigger="{triggers}" '
            'hx-sync="this:replace" hx-disinherit="hx-sync" '
            f'hx-swap="outerHTML" hx-vals=\'{{"key": "{marks[name]}"}}\''
        )

    def side_label(side: str | None) -> str:
        if side == seat:
            return "you"
        return str(view["side_names"].get(side, f"side {side}"))

    return {
        "refresh": refresh,
        "side_label": side_label,
        "ship_name": lambda ship_id: names.get(ship_id, ship_id),
        # a fire option's target: a ship by its name, a live group by its kind and id
        "target_name": lambda target: names.get(target) or _group_name(view, target),
        "system_of": lambda ship_id, system_id: _system_name(view, ship_id, system_id),
        "names": names,
    }


def _view_model(
    view: dict[str, Any],
    token: str | None,
    error: str | None,
    kept: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What every block draws from the view alone (no further read); ``kept`` is a refused
    form's input, drawn back into the form that sent it."""
    seat = view["you"]
    mine = [s for s in view["ships"] if s["side"] == seat or seat == "referee"]
    your_move = seat in view["phase"]["awaiting"]
    marks = _key_marks()
    return {
        "v": view,
        "gid": view["game_id"],
        "legal": view["phase"]["legal"],
        "key_marks": marks,
        **_helpers(view, marks),
        "seat": seat,
        "mine": mine,
        "theirs": [s for s in view["ships"] if s not in mine],
        "can_defend": seat in ("A", "B") and _can_defend(mine),
        # a side the server's computer plays goes by its seat's name (public, like any name)
        "computer_played": any(
            ((s or {}).get("name") or "").startswith("Computer (")
            for s in view.get("seats", {}).values()
        ),
        "needle_types": _needle_types([s for s in view["ships"] if s not in mine]),
        "your_move": your_move,
        "error": error,
        "kept": dict(kept or {}),
        # the page offers the seat's link behind a POST (``seat_link``), never the link itself
        "offers_seat_link": bool(token) and seat in ("A", "B"),
        # one key per game state: a double submit applies once, the next state gets a new key
        "idem": f"web-{view['seq']}",
        "title": ("Your move — " if your_move else "") + "pingduel",
    }


def auto_defend(view: Mapping[str, Any]) -> bool | None:
    """The seat's standing order ``auto_defend`` as the view tells it (public), None if the
    view does not say."""
    orders = view.get("standing_orders")
    if isinstance(orders, Mapping):
        side = orders.get(view["you"], orders)
        if isinstance(side, Mapping) and "auto_defend" in side:
            return bool(side["auto_defend"])
    if isinstance(view.get("auto_defend"), list):
        return view["you"] in view["auto_defend"]
    return None


def _out_of_control(ships: list[Mapping[str, Any]]) -> list[str]:
    """The ids of the ships whose conditions say out of control (``activate`` drifts them)."""
    return [s["id"] for s in ships if any(c["type"] == "out_of_control" for c in s["conditions"])]


DEFENCE_TYPES = frozenset({"pds", "adfc", "salvo_launcher"})


def _can_defend(mine: list[Mapping[str, Any]]) -> bool:
    """Whether any of the seat's ships has something that defends against ordnance (RULES §9.5:
    PDS, ADFC, an SML's AF salvo, a class-1 beam): only then is the standing order offered."""
    for ship in mine:
        if any(sys["type"] in DEFENCE_TYPES for sys in ship["systems"]):
            return True
        if any(w.get("type") == "beam" and w.get("class") == 1 for w in ship.get("weapons", [])):
            return True
    return False


def _needle_types(theirs: list[Mapping[str, Any]]) -> list[str]:
    """The system types a needle missile may name: those the enemy's public hardware shows,
    never a core system (C1.6), nor hull or armour."""
    found = {sys["type"] for s in theirs for sys in s["systems"]}
    return sorted(found - CORE_TYPES - {"hull", "armour"})


async def _controls(reading: Reading, view: Mapping[str, Any]) -> dict[str, Any]:
    """What the orders block reads besides the view: the referee's rewind choices, and the
    deploy form's key — the seq that asked for this deployment, so that it survives the other
    side's deployment and a rewind that voided ours asks under a new key."""
    gid = view["game_id"]
    deploy = Deploy.type in view["phase"]["legal"]["commands"]
    return {
        "boundaries": await reading.command_boundaries(gid) if view["you"] == "referee" else [],
        "deploy_idem": f"web-deploy-{await reading.deployment_asked(gid)}" if deploy else None,
    }


async def _context(
    request: Request,
    reading: Reading,
    game_id: str,
    error: str | None = None,
    parts: Collection[str] = FRAGMENTS,
    kept: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What the page's blocks named in ``parts`` draw from, each read only for a block that
    draws it: the log for the map and the log, presence for the status, the rewind choices
    and the deploy key for the orders."""
    token, view = await _seen(request, reading, game_id)
    context = _view_model(view, token, error, kept)
    # the admin referees every game but holds no seat of it: nothing to notify it of
    context["seat_holder"] = view["you"] in ("A", "B", "referee") and (
        token is None or token != request.cookies.get(ADMIN_COOKIE)
    )
    events = []
    if "map" in parts or "log" in parts:
        events = (await reading.events(game_id, token, 0))["events"]
    if {"map", "sheets", "shiplist"} & set(parts):  # the sheets name the ships not seen
        context["map"] = mapview.build(view, events)
        context["fx"] = mapfx.build(view, events)  # the map's measuring and animations
    if "log" in parts:
        context["log"] = _log(view, events)
    if "status" in parts:
        referee = view["you"] == "referee"
        context["presence"] = await reading.presence(game_id, detailed=referee)
    if "controls" in parts:
        context.update(await _controls(reading, view))
    return context


@router.get("/games/{game_id}", response_model=None)
async def game_page(
    game_id: str, request: Request, reading: ReadingDep, lobby: LobbyDep
) -> Response:
    try:
        context = await _context(request, reading, game_id)
    except E.Problem as error:
        return _page(
            request, "message.html", {"title": error.title, "text": error.detail}, error.status
        )
    # the lessons of a guided duel are for its player; the whole page only (no block has them)
    seated = context["seat"] in ("A", "B")
    context["guided"] = seated and await lobby.is_guided(game_id)
    response = _page(request, "game.html", context)
    await move_legacy(request, response, game_id)
    # give each block its key now, as a fragment answer would: the first refresh after the page
    # loads is then a 204 when nothing changed, instead of a new block that would throw away
    # what the player had started (ticked shots, typed orders)
    body = bytes(response.body)
    for name in FRAGMENTS:
        mark = context["key_marks"][name]
        key = _fragment_key(_page(request, "game.html", context, block=name), mark)
        body = body.replace(mark.encode(), key.encode())
    fresh = HTMLResponse(body, headers=NO_STORE)
    for name, value in response.headers.items():
        if name == "set-cookie":
            fresh.headers.append(name, value)
    return fresh


def _key_marks() -> dict[str, str]:
    """Where each block's key goes, until it is known: a fresh random mark per answer, so that
    no text in the block (a side or ship named like a mark) can stand in for it."""
    return {name: secrets.token_hex(16) for name in FRAGMENTS}


def _fragment_key(block: Response, mark: str) -> str:
    """The block's key: a hash of the block as drawn, its mark left out (the same block drawn
    for another answer has another mark and the same key)."""
    return hashlib.sha256(bytes(block.body).replace(mark.encode(), b"")).hexdigest()[:16]


@router.get("/games/{game_id}/fragments/{name}", response_model=None)
async def fragment(game_id: str, name: str, request: Request, reading: ReadingDep) -> Response:
    """One named block of the game page; 204 when it has not changed since ``key``."""
    if name not in FRAGMENTS:
        return _page(request, "message.html", {"title": "Not found", "text": "no such part"}, 404)
    try:
        context = await _context(request, reading, game_id, parts={name})
    except E.Problem as error:
        return _page(
            request, "message.html", {"title": error.title, "text": error.detail}, error.status
        )
    key, fresh = _keyed_block(request, context, name)
    if request.query_params.get("key") == key:
        return Response(status_code=204, headers=NO_STORE)
    return fresh


def _keyed_block(
    request: Request,
    context: dict[str, Any],
    name: str,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> tuple[str, Response]:
    """Block ``name`` as drawn, with its key handed to it (in its ``hx-vals``), and the key:
    the block's next refresh is then a 204 while it is unchanged."""
    response = _page(request, "game.html", context, status, block=name)
    mark = context["key_marks"][name]
    key = _fragment_key(response, mark)
    body = bytes(response.body).replace(mark.encode(), key.encode())
    fresh = HTMLResponse(
        body, status_code=status, headers={**NO_STORE, **(headers or {}), "X-Fragment-Key": key}
    )
    issue_cookies(request, fresh)  # the block's forms carry a CSRF value for this cookie
    return key, fresh


@router.get("/games/{game_id}/record.json", response_model=None)
async def record(game_id: str, request: Request, reading: ReadingDep) -> Response:
    try:
        data = await reading.record(game_id, cookie_token(request, game_id))
    except E.Problem as error:
        return JSONResponse(error.body(), status_code=error.status)
    return JSONResponse(data, headers=NO_STORE)


@router.post("/games/{game_id}/invite/{side}", response_model=None)
async def reissue(
    game_id: str, side: str, request: Request, lobby: LobbyDep, reading: ReadingDep
) -> Response:
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    try:
        result = await lobby.reissue(game_id, side, cookie_token(request, game_id))
    except E.Problem as error:
        return _page(
            request, "message.html", {"title": error.title, "text": error.detail}, error.status
        )
    link = str(request.url_for("join", code=result["code"]))
    seat = (await reading.caller(game_id, cookie_token(request, game_id))).seat
    return _page(request, "invite.html", {"game_id": game_id, "side": seat, "links": {side: link}})


@router.post("/games/{game_id}/seat-link", response_model=None)
async def seat_link(game_id: str, request: Request, reading: ReadingDep) -> Response:
    """A player's private seat link, shown on a page of its own as the answer to a CSRF-checked
    POST: the game page and its blocks never hold the token, so nothing that reads a page (a
    cache, a saved copy, a screenshot, an extension's script) finds it there."""
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    token = cookie_token(request, game_id)
    try:
        caller = await reading.caller(game_id, token)
        if token is None or not caller.player:
            # the admin's cookie (referee of every game) is never shown as a seat link
            raise E.Forbidden("only a player's seat has a link to play it on another device")
        shown = await seat_links.shown(request, token)
    except E.Problem as error:
        return _page(
            request, "message.html", {"title": error.title, "text": error.detail}, error.status
        )
    link = str(request.url_for("seat", token=shown))
    context = {"game_id": game_id, "side": caller.seat, "link": link}
    return _page(request, "seat_link.html", context)


# -- actions ---------------------------------------------------------------------------------------
def _int(form: FormData, name: str) -> int:
    raw = _field(form, name)
    if raw is None:
        return 0
    value = forms.whole(raw)
    if value is None:
        raise E.Invalid(f"{name.replace('_', ' ')} must be a whole number")
    return value


def _float(form: FormData, name: str) -> float:
    value = forms.decimal(_field(form, name))
    if value is None:
        raise E.Invalid(f"{name.replace('_', ' ')} must be a number")
    return value


def _placements(form: FormData) -> list[dict[str, Any]]:
    """A deployment form's placements. The ships are named by the fields themselves
    (``x_{ship}``, ``y_{ship}``, ``heading_{ship}``), in the form's order; a ship with a
    velocity field (``vx_``/``vy_``) is placed for vector movement, else with a speed."""
    ships: list[str] = []
    for name, _ in form.multi_items():
        for prefix in ("x_", "y_", "heading_"):
            if name.startswith(prefix) and name[len(prefix) :] not in ("", *ships):
                ships.append(name[len(prefix) :])
    placements = []
    for sid in ships:
        item: dict[str, Any] = {
            "ship": sid,
            "position": {"x": _float(form, f"x_{sid}"), "y": _float(form, f"y_{sid}")},
            "heading": _int(form, f"heading_{sid}"),
        }
        if f"vx_{sid}" in form or f"vy_{sid}" in form:
            item["velocity"] = {"x": _float(form, f"vx_{sid}"), "y": _float(form, f"vy_{sid}")}
        else:
            item["speed"] = _int(form, f"speed_{sid}")
        placements.append(item)
    return placements


def _orders(form: FormData) -> dict[str, Any]:
    """A move's orders: vector ones when the form has the vector fields, else cinematic."""
    orders: dict[str, Any]
    if "rotate" in form or "thrust" in form:
        orders = {"rotate": _int(form, "rotate"), "thrust": _int(form, "thrust")}
    else:
        orders = {"speed_change": _int(form, "speed_change"), "turn": _int(form, "turn")}
    if form.get("leave") == "on":
        orders["leave"] = True
    return orders


def _shots(form: FormData) -> list[dict[str, Any]]:
    """One radio group per weapon, ``shot@{ship}|{weapon}``: its value names the shot
    "ship|weapon|target", a launch "ship|weapon|@x,y" (a suggested aim point) or
    "ship|weapon|@" (the point in the launcher's own fields), or is empty for "hold"; a bare
    ``shot`` field is read the same way. Every value is sent on, so one weapon named twice is
    the rules' to refuse (duplicate_weapon). "Hold fire" declares no shots whatever is chosen
    (also without JavaScript)."""
    picked = [
        value
        for name, value in form.multi_items()
        if (name == "shot" or name.startswith("shot@")) and isinstance(value, str) and value
    ]
    shots = []
    for raw in [] if form.get("hold") else picked:
        parts = str(raw).split("|")
        if len(parts) != 3:
            raise E.Invalid("a shot must name ship, weapon and target")
        if parts[2].startswith("@"):
            shots.append(_launch(form, parts[0], parts[1], parts[2][1:]))
            continue
        shot = {"ship": parts[0], "weapon": parts[1], "target": parts[2]}
        aimed = _field(form, f"system|{raw}")
        if aimed:
            shot["system"] = aimed  # a needle beam's target system
        shots.append(shot)
    return shots


def _launch(form: FormData, ship: str, weapon: str, point: str) -> dict[str, Any]:
    """A launch at an aim point: a suggestion's "x,y", else the launcher's ``aim_x@``/``aim_y@``
    fields (the map's click fills them); its ``load@`` and ``missile_system@`` when chosen."""
    key = f"{ship}|{weapon}"
    if point:
        xy = point.split(",")
        x, y = (forms.decimal(xy[0]), forms.decimal(xy[1])) if len(xy) == 2 else (None, None)
        if x is None or y is None:
            raise E.Invalid(f"the aim point of {weapon} must be two numbers, x and y")
    else:
        x, y = (
            forms.decimal(_field(form, f"aim_x@{key}")),
            forms.decimal(_field(form, f"aim_y@{key}")),
        )
        if x is None or y is None:
            raise E.Invalid(f"give {weapon} an aim point: click the map, or type x and y")
    shot: dict[str, Any] = {"ship": ship, "weapon": weapon, "aim": {"x": x, "y": y}}
    load = _field(form, f"load@{key}")
    if load:
        shot["load"] = load
    system = _field(form, f"missile_system@{key}")
    # a needle missile's target system type: its select is drawn only for a launcher that can
    # fire one, and it goes with the launch only when the needle is what it fires
    if system and load in (None, "", NEEDLE):
        shot["system"] = system
    return shot


def _fire(form: FormData) -> dict[str, Any]:
    shots = _shots(form)  # a malformed shot is named before a malformed window
    return {"window": _int(form, "window"), "shots": shots}


def _point(form: FormData, prefix: str, key: str, what: str) -> dict[str, float] | None:
    """A point typed or clicked into ``{prefix}_x@{key}``/``{prefix}_y@{key}``; None when both
    are blank, ``Invalid`` naming ``what`` when they are not two numbers."""
    raw_x, raw_y = _field(form, f"{prefix}_x@{key}"), _field(form, f"{prefix}_y@{key}")
    if not (raw_x or "").strip() and not (raw_y or "").strip():
        return None
    x, y = forms.decimal(raw_x), forms.decimal(raw_y)
    if x is None or y is None:
        raise E.Invalid(f"the point for {what} must be two numbers, x and y")
    return {"x": x, "y": y}


def _marker_orders(form: FormData) -> dict[str, Any]:
    """Step 2's orders: a heavy missile or a group given a point (``to_x@{marker}``,
    ``to_y@{marker}``, filled by a click on the map) flies to it, a group ticked ``land@`` lands
    (with a point too, the rules refuse: both are sent); one left blank holds on standing orders.
    A bay ticked ``launch@{bay}`` launches, to ``launch_to_x@``/``launch_to_y@`` when given."""
    orders: list[dict[str, Any]] = []
    launch: list[dict[str, Any]] = []
    for name, value in form.multi_items():
        if name.startswith("to_x@"):
            marker = name[len("to_x@") :]
            to = _point(form, "to", marker, f"{marker}")
            land = form.get(f"land@{marker}") in ("1", "on")
            if to is not None or land:
                order: dict[str, Any] = {"marker": marker}
                if to is not None:
                    order["to"] = to
                if land:
                    order["land"] = True
                orders.append(order)
        elif name.startswith("land@") and f"to_x@{name[len('land@') :]}" not in form:
            if value in ("1", "on"):
                orders.append({"marker": name[len("land@") :], "land": True})
        elif name.startswith("launch@") and value in ("1", "on"):
            bay = name[len("launch@") :]
            item: dict[str, Any] = {"bay": bay}
            to = _point(form, "launch_to", bay, f"the group launched from {bay}")
            if to is not None:
                item["to"] = to
            launch.append(item)
    return {"ship": _field(form, "ship") or "", "orders": orders, "launch": launch}


def _fighter_choices(form: FormData) -> dict[str, Any]:
    """The fighters step's answer: one radio group per group, ``attack@{marker}``, its value
    "target|ship", "target|group" or empty for no attack; a needle group's ``system@``, a
    multi-role group's ``mode@`` (left empty: anti-ship at a ship, point defence at a group).
    ``group@{marker}`` says which of the two a group is (or neither)."""
    choices = []
    for name, value in form.multi_items():
        if not name.startswith("attack@") or not isinstance(value, str):
            continue
        marker = name[len("attack@") :]
        target, _, what = value.partition("|")
        choice: dict[str, Any] = {"marker": marker, "attack": target or None}
        kind = _field(form, f"group@{marker}") or ""
        if kind == "needle" and target:
            system = _field(form, f"system@{marker}")
            if system:
                choice["system"] = system
        if kind == "multi" and target:
            choice["mode"] = _field(form, f"mode@{marker}") or (
                "pd" if what == "group" else "anti_ship"
            )
        choices.append(choice)
    return {"choices": choices}


def _allocations(form: FormData) -> dict[str, Any]:
    """A defence window's answer: one select per defending system, ``defend@{ship}|{system}``,
    and per intercepting group, ``intercept@{group}``, naming the attacking marker it meets, or
    empty for none."""
    allocations = []
    for name, value in form.multi_items():
        if not name.startswith("defend@") or not isinstance(value, str) or not value:
            continue
        parts = name[len("defend@") :].split("|")
        if len(parts) != 2:
            raise E.Invalid("a defence must name the ship and the system that fires")
        allocations.append({"ship": parts[0], "system": parts[1], "against": value})
    for name, value in form.multi_items():
        # an own group intercepting one attacker: ``intercept@{group}`` names it, or is empty
        if name.startswith("intercept@") and isinstance(value, str) and value:
            allocations.append({"group": name[len("intercept@") :], "against": value})
    if form.get("none"):
        allocations = []
    return {"window": _int(form, "window"), "allocations": allocations}


def _standing_orders(form: FormData) -> dict[str, Any]:
    return {"auto_defend": form.get("auto_defend") == "on"}


def _resign(form: FormData) -> dict[str, Any]:
    if form.get("confirm") != "on":
        raise E.Invalid("tick the box to confirm that you resign")
    return {}


def _named_fields(*names: str) -> Callable[[FormData], dict[str, Any]]:
    """Fields copied from the form as they are (ship, weapon, …); empty when absent."""
    return lambda form: {name: _field(form, name) or "" for name in names}


# each command's fields (besides ``type``) as its form spells them
_FORM_FIELDS: Mapping[type[Command], Callable[[FormData], dict[str, Any]]] = {
    Deploy: lambda form: {"ships": _placements(form)},
    Activate: _named_fields("ship"),
    Ping: _named_fields("ship"),
    Move: lambda form: {"ship": _field(form, "ship") or "", "orders": _orders(form)},
    EndActivation: _named_fields("ship"),
    Fire: _fire,
    CoreAction: _named_fields("ship", "action"),
    SetMode: _named_fields("ship", "weapon", "mode"),
    Markers: _marker_orders,
    Defend: _allocations,
    Fighters: _fighter_choices,
    StandingOrders: _standing_orders,
    Resign: _resign,
}
assert set(_FORM_FIELDS) == set(COMMANDS.values()), "a command no form can send"


def command_from_form(form: FormData) -> dict[str, Any]:
    """The API command a form describes (the same service call the REST API makes). Every id
    it needs is in the form itself: nothing is read before the command is sent."""
    kind = _field(form, "type") or ""
    if kind in web_clocks.FORM_COMMANDS:  # answered by the service, no fields (issue 15)
        return {"type": kind}
    command = COMMANDS.get(kind)
    if command is None:
        raise E.Invalid("unknown action")
    body = {"type": command.type, **_FORM_FIELDS[command](form)}
    at_seq = _field(form, "at_seq")
    if at_seq:
        seq = forms.seq(at_seq)
        if seq is None:
            raise E.Invalid("at seq must be the seq the page was drawn at: reload the page")
        body["at_seq"] = seq
    return body


@router.post("/games/{game_id}/act", response_model=None)
async def act(
    game_id: str, request: Request, reading: ReadingDep, commands: CommandsDep
) -> Response:
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    token = cookie_token(request, game_id)
    htmx = request.headers.get("HX-Request") == "true"
    try:
        try:
            body = command_from_form(form)
        except E.Invalid:
            # who may not send commands hears that, not what is wrong with the form
            await reading.sender(game_id, token)
            raise
        await commands.command(game_id, token, body, _field(form, "idem") or None)
    except (E.Problem, RulesError) as error:
        if isinstance(error, E.IdempotencyKeyReused):
            # the form's key belongs to a page whose form was already sent with other orders
            # (a second tab, or Back): that page is stale
            error = StaleState("the game has moved on since this form was shown; here it is now")
        status = error.status if isinstance(error, E.Problem) else 422
        if isinstance(error, RulesError):
            status = RULES_STATUS.get(error.kind, 422)
        if isinstance(error, E.Unauthorized | E.UnknownGame):
            return _page(
                request, "message.html", {"title": "Not allowed", "text": error.detail}, status
            )
        # the refused form comes back as the player filled it in, the reason above it
        kept = forms.kept(form)
        if not htmx:
            context = await _context(request, reading, game_id, _problem_text(error), kept=kept)
            return _page(request, "game.html", context, status)
        context = await _context(
            request, reading, game_id, _problem_text(error), {"controls"}, kept
        )
        return _keyed_block(request, context, "controls", status)[1]
    if htmx:
        # the answer's block carries its key, as a fragment does: the live stream's hint of
        # this very command may come after it (under load, after the player has started on
        # the new form), and its refresh must then be a 204, not a redraw that throws away
        # what the player put in. The page refreshes its blocks once the answer has settled
        # (its new orders block listens by then): asked before the swap, the orders block's
        # refresh came from the block the answer replaces and was thrown away, so an answer
        # drawn before the other side's next command (both declaring in a fire window)
        # stayed on the page, out of date, until the next event
        context = await _context(request, reading, game_id, parts={"controls"})
        after = {"HX-Trigger-After-Settle": "pd-refresh"}
        return _keyed_block(request, context, "controls", headers=after)[1]
    return RedirectResponse(f"/games/{game_id}", status_code=303, headers=NO_STORE)
