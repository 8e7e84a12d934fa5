"""After the game (issue 16): the summary's numbers, the replay's per-side knowledge and who may
open them, against FIXED's scripted duel (``tests.web.Script``: a fixed seed and id, so fixed
dice: A moves and pings, both fire, a1 takes 2 armour + 8 hull and b1 is missed, B moves away
and resigns)."""

from __future__ import annotations

from typing import Any

import httpx

from app.web.summary import result_words
from tests.conftest import ADMIN
from tests.web import (
    A_DEPLOY,
    B_DEPLOY,
    Script,
    api_events,
    api_view,
    create_game,
    deploy_body,
    element,
    leaks,
    secrets_of,
    send,
)
from tests.web.conftest import BrowserFactory

SIDES = ("A", "B")


def _filled(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """The frames with each viewpoint's ships and markers filled in (a frame sends null for
    those that are as in the frame before)."""
    last: dict[tuple[str, str], Any] = {}
    out = []
    for frame in replay["frames"]:
        views = {}
        for name, view in frame["views"].items():
            views[name] = dict(view)
            for part in ("ships", "markers"):
                if view[part] is None:
                    views[name][part] = last[name, part]
                last[name, part] = views[name][part]
        out.append({**frame, "views": views})
    return out


def _frame(frames: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    return next(f for f in frames if f["seq"] == seq)


def _where(view: dict[str, Any]) -> dict[str, tuple[str, float, float]]:
    """What a seat's API view says of each ship it can place: own/live where it is, stale where
    last seen (to the replay's 3 decimals)."""
    out = {}
    for ship in view["ships"]:
        if ship.get("position"):
            kind = "own" if ship["side"] == view["you"] else "live"
            out[ship["id"]] = (
                kind,
                round(ship["position"]["x"], 3),
                round(ship["position"]["y"], 3),
            )
        elif ship["revealed"] == "stale" and ship.get("last_known"):
            last = ship["last_known"]
            out[ship["id"]] = ("stale", round(last["x"], 3), round(last["y"], 3))
    return out


def _drawn(frame_view: dict[str, Any]) -> dict[str, tuple[str, float, float]]:
    return {s["id"]: (s["kind"], s["x"], s["y"]) for s in frame_view["ships"]}


async def test_the_summary_and_each_sides_knowledge_of_the_scripted_duel(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    script = Script(client, "A")
    # what each seat's own view said at each checkpoint (the replay must say the same)
    seen: list[dict[str, Any]] = []
    for step in ("deployed", "a_moved", "fire_window", "volley", "b_moved"):
        game = await script.to(step)
        seen += [await api_view(client, game, side) for side in SIDES]
    game = await script.to("finished")
    a = new_browser()
    await a.enter(game.tokens["A"])
    r = await a.get(f"/games/{game.id}/replay.json")
    assert r.status_code == 200, r.text
    replay = r.json()
    s = replay["summary"]
    frames = _filled(replay)

    # the numbers, counted from the referee's log here as well as fixed by the dice
    log = await api_events(client, game, "admin")
    side_of = {
        ship["id"]: ship["side"] for ship in (await api_view(client, game, "admin"))["ships"]
    }
    shots = [x for e in log if e["type"] == "fire_resolved" for x in e["data"]["shots"]]
    for side in SIDES:
        mine = [x for x in shots if side_of[x["ship"]] == side and not x.get("cancelled")]
        assert s["sides"][side]["shots"] == len(mine) > 0
        revealed = [e for e in log if e["type"] == "ship_revealed"]
        assert s["sides"][side]["detected"] == sum(
            side_of[e["data"]["ship"]] == side for e in revealed
        )
    assert s["sides"]["A"]["hits"] == 0 and s["sides"]["B"]["hits"] == 2  # b1 missed, a1 hit
    assert (s["sides"]["A"]["damage"], s["sides"]["B"]["damage"]) == (0, 10)  # 2 armour + 8 hull
    assert (s["sides"]["A"]["pings"], s["sides"]["B"]["pings"]) == (1, 0)
    assert s["sides"]["A"]["points"] == s["sides"]["B"]["points"] == 0 == s["score"]["A"]
    assert s["result"] == {"head": "Picket (side A) won", "why": "Raider (side B) resigned."}

    # each viewpoint at each checkpoint is what that seat's view said then
    for view in seen:
        frame = _frame(frames, view["seq"])
        assert _drawn(frame["views"][view["you"]]) == _where(view), (view["you"], view["seq"])
    deployed = next(v for v in seen if v["you"] == "A")
    early = _frame(frames, deployed["seq"])
    assert "b1" not in _drawn(early["views"]["A"])  # A has not seen b1 yet
    assert _drawn(early["views"]["all"])["b1"] == ("truth", *B_DEPLOY)
    volley = next(f for f in frames if f["type"] == "fire_resolved")
    assert [fx["fx"] for fx in volley["views"]["A"]["fx"]] == ["shot"] * len(shots)
    ping = next(f for f in frames if f["type"] == "ping")
    assert ping["views"]["B"]["fx"][0]["fx"] == "ping"
    hurt = next(f for f in frames if f["type"] == "damage")
    assert hurt["views"]["A"]["fx"] == [{"fx": "damage", "x": 30.35, "y": 19.65, "amount": 10}]

    # the page shows the same numbers, and its share link holds no seat
    page = (await a.get(f"/games/{game.id}/replay")).text
    assert element(page, "after-head") == "Picket (side A) won"
    assert '<tr data-row="damage"><th scope="row">Damage dealt' in page
    assert '<td data-side="B">10</td>' in page
    assert f'href="http://test/games/{game.id}/replay" id="share-link"' in page
    for token in game.tokens.values():
        assert token not in page
    # a spectator game's replay is open to anyone with the link
    stranger = new_browser()
    assert (await stranger.get(f"/games/{game.id}/replay")).status_code == 200
    assert (await stranger.get(f"/games/{game.id}/replay.json")).status_code == 200


async def test_before_the_end_the_replay_shows_nothing(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    script = Script(client, "A")
    game = await script.to("b_moved")  # b1 has moved where A cannot see it
    secrets = [x for x in secrets_of(await api_events(client, game, "admin")) if x.ship == "b1"]
    assert secrets
    a, admin, stranger = new_browser(), new_browser(), new_browser()
    await a.enter(game.tokens["A"])
    admin.hold(game.id, ADMIN)  # the referee of every game: not before the end either
    for who in (a, admin, stranger):
        for path in ("replay", "replay.json", "summary"):
            r = await who.get(f"/games/{game.id}/{path}")
            assert r.status_code == 403, (path, r.text)
            assert "not over yet" in r.text
            assert leaks(r.text, secrets) == []
            assert '"frames"' not in r.text and "after-tally" not in r.text


async def test_a_game_without_spectators_opens_its_replay_to_its_seats_only(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel", "spectators": False})
    await send(client, game, "A", deploy_body("a1", A_DEPLOY, 0, 8))
    await send(client, game, "B", deploy_body("b1", B_DEPLOY, 6, 8))
    await send(client, game, "A", {"type": "resign"})
    stranger, b, admin = new_browser(), new_browser(), new_browser()
    for path in ("replay", "replay.json", "summary"):
        r = await stranger.get(f"/games/{game.id}/{path}")
        assert r.status_code == 403, r.text
        assert "without spectators" in r.text
        assert "after-tally" not in r.text and '"frames"' not in r.text
    await b.enter(game.tokens["B"])
    admin.hold(game.id, ADMIN)
    for who in (b, admin):
        r = await who.get(f"/games/{game.id}/replay")
        assert r.status_code == 200, r.text
        assert "only its players and its referee can open it" in r.text
    # B's game page: the result in words and the summary it loads, no token in either
    page = (await b.page(game.id)).text
    assert element(page, "result") == "You won — Picket (side A) resigned."
    assert f'hx-get="/games/{game.id}/summary"' in page
    part = (await b.get(f"/games/{game.id}/summary")).text
    assert element(part, "after-head") == "Raider (side B) won"
    assert game.tokens["B"] not in part and game.tokens["B"] not in page
    assert (await stranger.get("/games/nosuchgame/replay")).status_code == 404


def test_the_result_says_who_won_and_why() -> None:
    names = {"A": "Raiders", "B": "Side B"}
    assert result_words("A", "no_ships_left", names) == {
        "head": "Raiders (side A) won",
        "why": "Side B has no ships left in play.",
    }
    assert result_words("draw", "turn_limit", names)["head"] == "A draw"
    words = result_words("B", "referee", names, note="A left the club")
    assert words["why"] == "The referee ended the game: “A left the club”."
