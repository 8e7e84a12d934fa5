"""Helpers for the page tests: browsers with their own cookies, a scripted duel with fixed dice,
"is a secret in this HTML?" checks, and golden files.

- ``Browser``: one browser (its own cookie jar: CSRF cookie, seat cookies) talking to the app
  through the ``client`` fixture's ASGI transport; ``enter(token)`` takes a seat the way a person
  does (``/seat/{token}``, then its confirmation), ``form(...)`` posts a form with the page's
  CSRF field.
- ``Script``: the duel of ``FIXED`` (fixed game id and seed, so the dice are fixed: A moves and
  pings, reveals B, both fire, A's power core goes critical, B moves away) driven through the
  API, stopping at named checkpoints.
- ``secrets_of(events, ship)``: every true position a ship had that was never revealed (its
  deployment, each move's end), read from the referee's full log; ``leaks(html, ...)`` finds
  any of them in a page, in every form a page writes a position: SVG pairs (``x``, ``48 - y``
  rounded to 3 places, also the 2-place path form), the ``(36.0, 4.0)`` text form, data
  attributes; and, for coordinates no public fact shares, the bare SVG numbers.
- ``golden(name, html)``: compares a block with ``tests/web/golden/<name>.html`` after
  ``normalise``; ``PINGDUEL_REGEN_GOLDEN=1`` rewrites the file instead.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import urlencode

import httpx

from tests.conftest import ADMIN

API = "/api/v1"
ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}
GOLDEN = Path(__file__).parent / "golden"
FRAGMENTS = ("status", "map", "controls", "sheets", "log", "shiplist")
HEIGHT = 48.0

SEED = "5eed" + "0" * 59 + "1"
# distinctive coordinates (no grid line, no range, no other ship shares a number)
A_DEPLOY = (30.35, 7.65)  # heading 0 (north), speed 8
B_DEPLOY = (41.45, 40.55)  # heading 6 (south), speed 8
# a1 moves straight on at speed 12 → (30.35, 19.65); pings; b1 is 23.7 mu away, in band 2
A_ORDERS = {"speed_change": 4, "turn": 0}
B_ORDERS = {"speed_change": -2, "turn": 1}
# game ids whose dice (HMAC(seed, "id:k")) play FIXED's story: A1794 for a game created by side
# A (a1 takes 2 armour + 8 hull, rows 1 and 2 at once, so its core systems can fail: its power
# core goes critical; b1 is missed), r0019 for a game created by a referee (a1 takes 2 + 5, b1
# 2 armour)
GAME_BY_A = "webgameA1794"
GAME_BY_REFEREE = "webgamer0019"


# -- browsers --------------------------------------------------------------------------------------
class Browser:
    """One browser: its own cookies, the app behind the shared ASGI transport."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.http = httpx.AsyncClient(
            transport=client._transport,  # the same app (and lifespan) as the fixture's client
            base_url=client.base_url,
        )
        self.csrf: str | None = None
        self.responses: list[httpx.Response] = []  # every answer, for "all no-store" checks

    async def close(self) -> None:
        await self.http.aclose()

    def _remember(self, r: httpx.Response) -> httpx.Response:
        self.responses.append(r)
        token = (
            csrf_in(r.text) if r.headers.get("content-type", "").startswith("text/html") else None
        )
        if token:
            self.csrf = token
        return r

    async def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self._remember(await self.http.get(path, **kwargs))

    async def post(
        self,
        path: str,
        data: Mapping[str, Any] | Sequence[tuple[str, str]],
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """A form post (repeated names allowed, in order, like a browser sends them)."""
        items = list(data.items()) if isinstance(data, Mapping) else list(data)
        return self._remember(
            await self.http.post(
                path,
                content=urlencode([(k, str(v)) for k, v in items]).encode(),
                headers={"Content-Type": "application/x-www-form-urlencoded", **(headers or {})},
            )
        )

    async def form(
        self,
        path: str,
        fields: Mapping[str, Any] | Sequence[tuple[str, str]],
        *,
        htmx: bool = False,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """Post a form as a page would: the CSRF field of the last page this browser saw."""
        if self.csrf is None:
            await self.get("/")
        items = list(fields.items()) if isinstance(fields, Mapping) else list(fields)
        if not any(k == "csrf" for k, _ in items):
            items.append(("csrf", str(self.csrf)))
        extra = dict(headers or {})
        if htmx:
            extra["HX-Request"] = "true"
        return await self.post(path, data=[(k, str(v)) for k, v in items], headers=extra)

    async def enter(self, token: str) -> httpx.Response:
        """Take a seat by its private link: the page that names the seat, then its
        confirmation (sets the seat cookie)."""
        r = await self.get(f"/seat/{token}")
        assert r.status_code == 200, r.text
        r = await self.form("/seat", {"token": token})
        assert r.status_code == 303, r.text
        return r

    def hold(self, game_id: str, token: str) -> None:
        """Put a token in this game's seat cookie directly (the admin has no seat link)."""
        self.http.cookies.set(f"pd_seat_{game_id}", token, domain="test.local", path="/")

    async def fragment(self, game_id: str, name: str, key: str | None = None) -> httpx.Response:
        params = {"key": key} if key is not None else None
        return await self.get(f"/games/{game_id}/fragments/{name}", params=params)

    async def page(self, game_id: str) -> httpx.Response:
        r = await self.get(f"/games/{game_id}")
        assert r.status_code == 200, r.text
        return r


def csrf_in(html: str) -> str | None:
    m = re.search(r'name="csrf" value="([0-9a-f]{64})"', html)
    return m.group(1) if m else None


def hidden_fields(html: str, form_id: str | None = None) -> dict[str, str]:
    """The hidden inputs of a form (the first form, or the one with ``id=form_id``)."""
    if form_id is not None:
        m = re.search(rf'<form[^>]*id="{form_id}".*?</form>', html, re.S)
    else:
        m = re.search(r"<form.*?</form>", html, re.S)
    assert m, f"no form {form_id or ''} in the page"
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', m.group(0)))


def element(page: str, element_id: str) -> str:
    """The text of the element with that id (a ``<p>``/``<section>`` without nesting issues)."""
    m = re.search(rf'<(\w+)[^>]*id="{element_id}"[^>]*>(.*?)</\1>', page, re.S)
    assert m, f"no #{element_id} in the page"
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m.group(2))).strip())


# -- games through the API -------------------------------------------------------------------------
@dataclass
class Game:
    id: str
    tokens: dict[str, str]
    invites: dict[str, str] = field(default_factory=dict)

    def auth(self, seat: str) -> dict[str, str]:
        if seat == "spectator":
            return {}
        if seat == "admin" or (seat == "referee" and seat not in self.tokens):
            return dict(ADMIN_AUTH)
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    @property
    def path(self) -> str:
        return f"{API}/games/{self.id}"


async def create_game(
    client: httpx.AsyncClient,
    body: Mapping[str, Any],
    *,
    game_id: str | None = None,
    claim: Iterable[str] | None = None,
) -> Game:
    """``POST /api/v1/games`` (with the id fixed if given); claims the invites named in
    ``claim`` (all of them when None)."""
    # only the admin may choose the seed (RULES §12)
    headers = ADMIN_AUTH if "seed" in body else {}
    if game_id is not None:
        with mock.patch("app.play.tokens.new_id", return_value=game_id):
            r = await client.post(f"{API}/games", json=dict(body), headers=headers)
    else:
        r = await client.post(f"{API}/games", json=dict(body), headers=headers)
    assert r.status_code == 201, r.text
    created = r.json()
    game = Game(created["game_id"], {created["side"]: created["token"]}, dict(created["invites"]))
    for side in list(created["invites"]) if claim is None else claim:
        await claim_seat(client, game, side)
    return game


async def claim_seat(client: httpx.AsyncClient, game: Game, side: str) -> None:
    code = game.invites[side]
    r = await client.post(f"{API}/invites/{code}/claim", json={"name": f"Player {side}"})
    assert r.status_code == 200, r.text
    game.tokens[side] = r.json()["token"]


async def send(
    client: httpx.AsyncClient, game: Game, seat: str, body: Mapping[str, Any]
) -> dict[str, Any]:
    r = await client.post(f"{game.path}/commands", json=dict(body), headers=game.auth(seat))
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


async def api_view(client: httpx.AsyncClient, game: Game, seat: str) -> dict[str, Any]:
    r = await client.get(game.path, headers=game.auth(seat))
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


async def api_events(client: httpx.AsyncClient, game: Game, seat: str) -> list[dict[str, Any]]:
    r = await client.get(f"{game.path}/events", headers=game.auth(seat))
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


async def state_of(client: httpx.AsyncClient, game: Game) -> tuple[Any, Any]:
    """The referee's view and full log: equal before and after anything refused."""
    return await api_view(client, game, "admin"), await api_events(client, game, "admin")


def deploy_body(ship: str, pos: tuple[float, float], heading: int, speed: int) -> dict[str, Any]:
    return {
        "type": "deploy",
        "ships": [
            {
                "ship": ship,
                "position": {"x": pos[0], "y": pos[1]},
                "heading": heading,
                "speed": speed,
            }
        ],
    }


def first_shots(view: Mapping[str, Any]) -> list[dict[str, str]]:
    """One shot per weapon from ``fire_options`` (the first target each weapon can reach)."""
    used: set[tuple[str, str]] = set()
    shots = []
    for o in view["phase"]["legal"]["fire_options"]:
        if (o["ship"], o["weapon"]) not in used:
            used.add((o["ship"], o["weapon"]))
            shots.append({k: o[k] for k in ("ship", "weapon", "target")})
    return shots


class Script:
    """FIXED's duel through the API, one checkpoint at a time.

    waiting → deploying (both seated) → a_deployed (A's positions secret) → deployed (turn 1,
    A to act) → a_moved (a1's move secret) → fire_window (a1 pinged: a1 and b1 live) →
    a_declared (A's shots secret until B's are in) → volley (both fired: damage) → b_moved
    (b1 moved: stale for A) → finished (B resigned).
    """

    STEPS = (
        "waiting",
        "deploying",
        "a_deployed",
        "deployed",
        "a_moved",
        "fire_window",
        "a_declared",
        "volley",
        "b_moved",
        "finished",
    )

    def __init__(self, client: httpx.AsyncClient, creator: str) -> None:
        self.client = client
        self.creator = creator
        self.game: Game | None = None
        self.done = -1

    async def advance(self) -> str:
        c, step = self.client, self.STEPS[self.done + 1]
        if step == "waiting":
            game_id = GAME_BY_A if self.creator == "A" else GAME_BY_REFEREE
            body = {"scenario": "duel", "creator": self.creator, "seed": SEED}
            if self.creator == "A":
                body["creator_name"] = "Ann"
            claim = [] if self.creator == "A" else ["A"]
            self.game = await create_game(c, body, game_id=game_id, claim=claim)
        g = self.game
        assert g is not None
        if step == "deploying":
            await claim_seat(c, g, "B")
        elif step == "a_deployed":
            await send(c, g, "A", deploy_body("a1", A_DEPLOY, 0, 8))
        elif step == "deployed":
            reply = await send(c, g, "B", deploy_body("b1", B_DEPLOY, 6, 8))
            assert reply["view"]["phase"]["side"] == "A", "the fixed dice let A go first"
        elif step == "a_moved":
            await send(c, g, "A", {"type": "move", "ship": "a1", "orders": A_ORDERS})
        elif step == "fire_window":
            reply = await send(c, g, "A", {"type": "ping", "ship": "a1"})
            assert reply["view"]["phase"]["awaiting"] == ["A", "B"], reply["view"]["phase"]
        elif step == "a_declared":
            v = await api_view(c, g, "A")
            await send(c, g, "A", self._fire(v))
        elif step == "volley":
            v = await api_view(c, g, "B")
            reply = await send(c, g, "B", self._fire(v))
            assert any(e["type"] == "damage" for e in reply["events"])
        elif step == "b_moved":
            await send(c, g, "B", {"type": "move", "ship": "b1", "orders": B_ORDERS})
        elif step == "finished":
            await send(c, g, "B", {"type": "resign"})
        self.done += 1
        return step

    @staticmethod
    def _fire(v: Mapping[str, Any]) -> dict[str, Any]:
        shots = first_shots(v)
        assert shots, v["phase"]["legal"]
        return {"type": "fire", "window": v["phase"]["legal"]["window"], "shots": shots}

    async def to(self, step: str) -> Game:
        while self.done < self.STEPS.index(step):
            await self.advance()
        assert self.game is not None
        return self.game


# -- secrets in HTML -------------------------------------------------------------------------------
def _num(value: float) -> str:
    return str(round(value, 3))


def svg_of(x: float, y: float, height: float = HEIGHT) -> tuple[float, float]:
    return round(x, 3), round(height - y, 3)


def pair_forms(x: float, y: float, height: float = HEIGHT) -> list[str]:
    """Every way a page writes the position (x, y)."""
    sx, sy = svg_of(x, y, height)
    return [
        f"{sx},{sy}",  # translate(), polyline points
        f"{sx:.2f},{sy:.2f}",  # wedge paths
        f'cx="{sx}" cy="{sy}"',
        f'x1="{sx}" y1="{sy}"',
        f'x2="{sx}" y2="{sy}"',
        f"({x:.1f}, {y:.1f})",  # sentences and record sheets
        f'data-x="{x}" data-y="{y}"',
    ]


def number_forms(x: float, y: float, height: float = HEIGHT) -> set[str]:
    sx, sy = svg_of(x, y, height)
    return {_num(sx), _num(sy), _num(x), _num(y)}


@dataclass(frozen=True)
class Secret:
    ship: str
    x: float
    y: float
    where: str


def _position(p: Mapping[str, Any]) -> tuple[float, float]:
    return float(p["x"]), float(p["y"])


def public_positions(events: Sequence[Mapping[str, Any]]) -> set[tuple[str, float, float]]:
    return {
        (e["data"]["ship"], *_position(e["data"]["position"]))
        for e in events
        if e["type"] == "ship_revealed" and not e.get("voided")
    }


def secrets_of(full_log: Sequence[Mapping[str, Any]]) -> list[Secret]:
    """Every true position in the referee's log that was never revealed."""
    shown = public_positions(full_log)
    out: list[Secret] = []
    for e in full_log:
        if e.get("voided"):
            continue
        d = e["data"]
        found: list[tuple[str, tuple[float, float], str]] = []
        if e["type"] == "deployed":
            found = [(p["ship"], _position(p["position"]), "deployed") for p in d["ships"]]
        elif e["type"] == "ship_moved":
            found = [(d["ship"], _position(d["to"]), f"moved at seq {e['seq']}")]
        for ship, (x, y), where in found:
            if not any(s == ship and abs(x - px) + abs(y - py) < 1e-9 for s, px, py in shown):
                out.append(Secret(ship, x, y, where))
    return out


def public_numbers(full_log: Sequence[Mapping[str, Any]]) -> set[str]:
    out: set[str] = set()
    for _, x, y in public_positions(full_log):
        out |= number_forms(x, y)
    return out


def leaks(
    html: str,
    secrets: Iterable[Secret],
    allowed_numbers: set[str] = frozenset(),  # type: ignore[assignment]
) -> list[str]:
    """What of ``secrets`` the HTML gives away (empty when nothing)."""
    found = []
    for s in secrets:
        for form in pair_forms(s.x, s.y):
            if form in html:
                found.append(f"{s.ship} {s.where}: {form!r}")
        for number in number_forms(s.x, s.y) - allowed_numbers:
            if re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", html):
                found.append(f"{s.ship} {s.where}: the number {number}")
    return found


# -- golden files ----------------------------------------------------------------------------------
_VOLATILE = (
    (re.compile(r'name="csrf" value="[0-9a-f]{64}"'), 'name="csrf" value="CSRF"'),
    (re.compile(r'name="idem" value="[^"]*"'), 'name="idem" value="IDEM"'),
    (re.compile(r'"key": "[0-9a-f]{16}"'), '"key": "KEY"'),
    (re.compile(r"/seat/[A-Za-z0-9_-]{20,}"), "/seat/TOKEN"),
    (re.compile(r"/join/[A-Za-z0-9_-]{16,}"), "/join/CODE"),
    (re.compile(r'nonce="[A-Za-z0-9_-]{16,}"'), 'nonce="NONCE"'),  # a fresh one per answer
)


# a block's self-refresh attributes (their htmx details are the page script's business, and the
# key protocol is tested on its own): one token per block
_REFRESH = re.compile(r'hx-get="/games/GAME/fragments/(\w+)" .*?hx-vals=\'\{"key": "KEY"\}\'')


def normalise(html: str, game_id: str) -> str:
    out = html.replace(game_id, "GAME")
    for pattern, replacement in _VOLATILE:
        out = pattern.sub(replacement, out)
    out = _REFRESH.sub(r"REFRESH(\1)", out)
    return "\n".join(line.rstrip() for line in out.strip().splitlines()) + "\n"


def golden(name: str, html: str, game_id: str) -> None:
    """Compare with (or, under ``PINGDUEL_REGEN_GOLDEN=1``, rewrite) ``golden/<name>.html``."""
    path = GOLDEN / f"{name}.html"
    text = normalise(html, game_id)
    if os.environ.get("PINGDUEL_REGEN_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run with PINGDUEL_REGEN_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        import difflib

        diff = "\n".join(
            difflib.unified_diff(
                expected.splitlines(), text.splitlines(), "golden", "now", lineterm="", n=2
            )
        )
        raise AssertionError(f"{path.name} differs (PINGDUEL_REGEN_GOLDEN=1 rewrites it):\n{diff}")
