"""The stored seat-visibility of each event comes from the rules' own fog of war."""

from __future__ import annotations

import httpx

from app.play.logbook import full_for
from tests.rules.golden_runner import GOLDEN_DIR, load, play
from tests.rules.test_properties import cancelled_shot_game
from tests.web import api_view, create_game, deploy_body, send


def test_each_event_is_stored_with_who_receives_it_in_full() -> None:
    state, log = play(load(GOLDEN_DIR / "001_deploy_ping_reveal.json"))
    stored = [(e.type, full_for(e, state)) for e in log]
    assert stored == [
        ("game_started", "all"),
        ("deployed", "A"),
        ("deployed", "B"),
        ("turn_started", "all"),
        ("activation_started", "all"),
        ("ship_moved", "A"),  # a1's move: its owner only
        ("ping", "B"),  # the ECM dice of b1 are for b1's owner
        ("ship_revealed", "all"),
        ("ship_revealed", "all"),
        ("fire_window", "all"),
    ]


def test_a_volley_with_a_cancelled_shot_is_stored_as_its_owners() -> None:
    """RULES §7: the cancelled shot is A's secret, so B and spectators get the volley without
    it, and the stored visibility says A alone gets it in full."""
    steps = cancelled_shot_game()
    state = steps[-1].after
    stored = [(e.type, full_for(e, state)) for step in steps[-3:] for e in step.events]
    assert ("fire_resolved", "A") in stored
    assert ("core_action", "all") in stored


# -- the referee, disclosed ------------------------------------------------------------------------
async def test_every_view_says_whether_a_human_referee_watches(client: httpx.AsyncClient) -> None:
    """``referee`` is null without a human referee (the admin is nobody's named referee); a
    referee seat is named, with whether it has a page or stream open, in every seat's view, the
    spectators' and the admin's, in the answer to a command and in a referee action's answer."""
    plain = await create_game(client, {"scenario": "duel", "creator_name": "Ann"})
    for seat in ("A", "B", "spectator", "admin"):
        assert (await api_view(client, plain, seat))["referee"] is None, seat
    body = {"scenario": "duel", "creator": "referee", "creator_name": "Rex"}
    game = await create_game(client, body)
    away = {"name": "Rex", "connected": False}
    for seat in ("A", "B", "referee", "spectator", "admin"):
        assert (await api_view(client, game, seat))["referee"] == away, seat
    reply = await send(client, game, "A", deploy_body("a1", (36, 4), 0, 6))
    assert reply["view"]["referee"] == away
    r = await client.post(
        f"{game.path}/referee/pause", json={"reason": "tea"}, headers=game.auth("referee")
    )
    assert r.status_code == 200, r.text
    assert r.json()["referee"] == away
    # the referee's seat opens a page somewhere: everyone sees it connected
    presence = client._transport.app.state.presence  # type: ignore[attr-defined]
    conn = await presence.open(game.id, "referee", "page")
    for seat in ("A", "B", "spectator"):
        assert (await api_view(client, game, seat))["referee"] == {**away, "connected": True}
    await presence.close(conn)
    assert (await api_view(client, game, "B"))["referee"] == away
    # a referee without a name is still announced
    unnamed = await create_game(client, {"scenario": "duel", "creator": "referee"})
    assert (await api_view(client, unnamed, "A"))["referee"] == {"name": None, "connected": False}
