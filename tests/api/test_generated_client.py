"""A client generated from the app's OpenAPI document plays a whole game against a live server.

``openapi-python-client`` (pinned in the dev dependencies) writes a package from the document
the app serves into a temporary directory; the test imports it and, with its functions and
models only (no hand-written HTTP), creates a duel with a turn limit of one, claims the
invite, deploys both ships and plays the turn through: each side's activation (activate, move,
ping, the fire window of the ping) until the turn limit ends the game; then it reads the
events, the views and the record. If the generator cannot model part of the document, the
generation fails here: a schema defect to fix, not to hide.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.conftest import LiveServer

PACKAGE = "pingduel_client"
# no post-hooks: the generator would run ruff over its output (not ours to lint)
CONFIG = f"project_name_override: {PACKAGE}\npackage_name_override: {PACKAGE}\npost_hooks: []\n"


@pytest.fixture
def generated(live_server: LiveServer, tmp_path: Path) -> Iterator[ModuleType]:
    document = httpx.get(f"{live_server.url}/api/v1/openapi.json").json()
    (tmp_path / "openapi.json").write_text(json.dumps(document))
    (tmp_path / "config.yaml").write_text(CONFIG)
    out = tmp_path / "generated"
    run = subprocess.run(
        [
            str(Path(sys.executable).parent / "openapi-python-client"),
            "generate",
            "--path",
            str(tmp_path / "openapi.json"),
            "--output-path",
            str(out / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(tmp_path / "config.yaml"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # a warning means part of the document was dropped: a defect of the document
    assert run.returncode == 0 and "Warning" not in run.stdout, run.stdout + run.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _api(name: str) -> Any:
    """A generated operation module, by its tag folder and operation id."""
    return importlib.import_module(f"{PACKAGE}.api.{name}")


def test_a_generated_client_plays_a_whole_game(
    generated: ModuleType, live_server: LiveServer
) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    create = _api("games.create_game_api_v1_games_post")
    claim = _api("invites.claim_api_v1_invites_code_claim_post")
    command = _api("games.post_command_api_v1_games_game_id_commands_post")
    get_view = _api("games.get_view_api_v1_games_game_id_get")
    get_events = _api("games.get_events_api_v1_games_game_id_events_get")
    get_record = _api("games.get_record_api_v1_games_game_id_record_get")
    anyone = generated.Client(base_url=live_server.url)

    made = create.sync(
        client=anyone,
        body=models.CreateGameIn(
            scenario=models.CreateGameInScenarioType0.DUEL, turn_limit=1, creator_name="Ann"
        ),
    )
    assert isinstance(made, models.CreateGameOut), made
    claimed = claim.sync(made.invites["B"], client=anyone, body=models.ClaimIn(name="Bob"))
    assert isinstance(claimed, models.ClaimOut), claimed
    game = made.game_id
    seats = {
        "A": generated.AuthenticatedClient(base_url=live_server.url, token=made.token),
        "B": generated.AuthenticatedClient(base_url=live_server.url, token=claimed.token),
    }

    def send(seat: str, body: Any) -> Any:
        reply = command.sync(game, client=seats[seat], body=body)
        assert isinstance(reply, models.CommandOut), (seat, body, reply)
        return reply

    for seat, ship, y, heading in (("A", "a1", 8, 0), ("B", "b1", 40, 6)):
        placement = models.PlacementIn(
            ship=ship, position=models.Point(x=36, y=y), heading=heading, speed=2
        )
        send(seat, models.DeployIn(type_="deploy", ships=[placement]))

    played: list[str] = []
    pinged: set[str] = set()
    for _ in range(60):  # a turn of a duel is a few dozen commands
        view = get_view.sync(game, client=seats["A"])
        assert isinstance(view, models.ViewOut), view
        if view.status == "finished":
            break
        phase = view.phase.to_dict()
        seat = phase["awaiting"][0]
        seen = get_view.sync(game, client=seats[seat])
        body = _next_command(models, seen.phase.to_dict(), pinged)
        send(seat, body)
        played.append(body.type_)
    else:
        raise AssertionError(f"the game did not end: {played}")

    assert {"activate", "move", "ping", "fire"} <= set(played), played
    events = get_events.sync(game, client=seats["B"], after=0)
    assert isinstance(events, models.EventsOut), events
    kinds = [e.type_ for e in events.events]
    for kind in ("deployed", "turn_started", "ping", "fire_window", "game_finished"):
        assert kind in kinds, (kind, kinds)
    assert [e.seq for e in events.events] == list(range(1, events.last_seq + 1))
    final = get_view.sync(game, client=seats["B"])
    assert isinstance(final, models.ViewOut) and final.status == "finished"
    assert final.seed is not None  # the seed is revealed at the end
    record = get_record.sync(game, client=seats["A"])
    assert isinstance(record, models.RecordOut), record
    assert record.status == "finished" and len(record.events) == events.last_seq


def _next_command(models: Any, phase: dict[str, Any], pinged: set[str]) -> Any:
    """What a patient player sends: fire nothing in an open window, activate the first ship
    the phase offers, ping once with it, then move it straight ahead."""
    legal = phase["legal"]["commands"]
    if "fire" in legal:
        return models.FireIn(type_="fire", window=phase["fire"]["window"], shots=[])
    ship = phase["ship"]
    if ship is None:
        return models.ActivateIn(type_="activate", ship=phase["legal"]["activatable"][0])
    if "ping" in legal and ship not in pinged:
        pinged.add(ship)
        return models.PingIn(type_="ping", ship=ship)
    if "move" in legal:
        orders = models.CinematicOrdersIn(speed_change=0, turn=0)
        return models.MoveIn(type_="move", ship=ship, orders=orders)
    raise AssertionError(f"no command for {phase}")
