"""A command the server refuses is a bug of the strategy: ``pingduel bot`` stops with exit 1
and shows the server's problem document (and never the token)."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest

from app.bot.cadet import Cadet
from app.bot.seat import Command, View
from app.bot.strategy import STRATEGIES
from app.cli import main
from tests.api.helpers import Duel, new_game
from tests.conftest import ADMIN, LiveServer


class Misplaced(Cadet):
    """Deploys every ship in the middle of the table, outside its zone."""

    name = "misplaced"

    def deploy(self, view: View, rng: random.Random) -> Command:
        command = super().deploy(view, rng)
        for placement in command["ships"]:
            placement["position"] = {"x": 36.0, "y": 24.0}
        return command


class Crashes(Cadet):
    """Fails on its first decision."""

    name = "crashes"

    def deploy(self, view: View, rng: random.Random) -> Command:
        raise RuntimeError("no idea where to go")


async def created(server: LiveServer) -> Duel:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        return await new_game(client, {"scenario": "duel"})


def test_a_refused_command_stops_the_bot_with_the_problem(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(STRATEGIES, Misplaced.name, Misplaced)
    duel = asyncio.run(created(live_server))
    monkeypatch.setenv("PINGDUEL_BOT_TOKEN", duel.tokens["A"])
    where = ["bot", "--url", live_server.url, "--game", duel.game_id, "--delay-scale", "0"]
    assert main([*where, "--strategy", "misplaced"]) == 1
    out, err = capsys.readouterr()
    assert "misplaced" in err and '"deploy"' not in out
    problem = json.loads(err.strip().splitlines()[-1])
    assert problem["code"] == "out_of_zone" and problem["status"] == 422
    assert duel.tokens["A"] not in out + err


def test_a_token_that_is_not_a_players_seat_is_refused(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    duel = asyncio.run(created(live_server))
    monkeypatch.setenv("PINGDUEL_BOT_TOKEN", ADMIN)  # the admin is every game's referee
    assert main(["bot", "--url", live_server.url, "--game", duel.game_id]) == 2
    out, err = capsys.readouterr()
    assert "seat A or B" in err and ADMIN not in out + err


def test_a_strategy_that_fails_is_said_in_a_line(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(STRATEGIES, Crashes.name, Crashes)
    duel = asyncio.run(created(live_server))
    monkeypatch.setenv("PINGDUEL_BOT_TOKEN", duel.tokens["B"])
    where = ["bot", "--url", live_server.url, "--game", duel.game_id, "--strategy", "crashes"]
    assert main(where) == 1
    _, err = capsys.readouterr()
    assert "crashes failed on the view at seq" in err and "no idea where to go" in err
    assert "Traceback" not in err
