"""The schemathesis CLI, as an operator would run it, against a live ``pingduel serve``:
``schemathesis run URL/api/v1/openapi.json --checks all`` over the whole document, every phase
(examples, coverage, fuzzing, stateful), every check — the stock ones and the repository's
``schemathesis.toml`` hook — on the selected database.

The in-process test (``test_schemathesis.py``) points generated requests at real games; this one
is the CLI's own run, which it does not repeat: the coverage phase's unexpected methods (the
``Allow`` of a 405), the stateful phase's chains, positive data refused with a 422 where the
game's rules do not judge it. It gets a real seat's token and game, and a real invite code, so
that its requests reach the rules. ``--max-examples`` keeps it near a minute here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from app.config import Settings
from app.main import create_app
from tests.conftest import ADMIN, ROOT, LiveServer

API = "/api/v1"
MAX_EXAMPLES = 8
SEED = 14  # a fixed run: the same cases each time (change it to explore)


def _world(url: str) -> tuple[str, str, str]:
    """An active duel (A deployed) with A's token, and the invite code of a waiting game."""
    with httpx.Client(base_url=url + API, timeout=10) as c:
        made = c.post("/games", json={"scenario": "duel", "creator_name": "Ann"}).json()
        c.post(f"/invites/{made['invites']['B']}/claim", json={"name": "Bob"}).raise_for_status()
        waiting = c.post(
            "/games", json={"scenario": "duel"}, headers={"Authorization": f"Bearer {ADMIN}"}
        ).json()
    return made["game_id"], made["token"], waiting["invites"]["B"]


def _config(tmp_path: Path, game_id: str, code: str) -> Path:
    """The repository's schemathesis.toml (hooks by absolute path), with the real game and
    invite as path parameters."""
    text = (ROOT / "schemathesis.toml").read_text()
    text = text.replace(
        'hooks = "tests/api/schemathesis_hooks.py"',
        f'hooks = "{ROOT / "tests/api/schemathesis_hooks.py"}"',
    )
    # top-level keys must come before the first table
    params = f'[parameters]\n"path.game_id" = "{game_id}"\n"path.code" = "{code}"\n\n'
    head, _, tables = text.partition("\n[")
    path = tmp_path / "schemathesis.toml"
    # an open event stream is read until max-stream-events or the request time-out, whichever
    # comes first: its own time-out stays short (every other answer has --request-timeout)
    streams = '\n[[operations]]\ninclude-path-regex = "/stream$"\nrequest-timeout = 5\n'
    path.write_text(f"{head}\n{params}[{tables}{streams}")
    return path


def test_schemathesis_cli_checks_all_is_clean(live_server: LiveServer, tmp_path: Path) -> None:
    game_id, token, code = _world(live_server.url)
    config = _config(tmp_path, game_id, code)
    run = subprocess.run(
        [
            str(Path(sys.executable).parent / "schemathesis"),
            "--no-color",
            "--config-file",
            str(config),
            "run",
            f"{live_server.url}{API}/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            str(MAX_EXAMPLES),
            "--seed",
            str(SEED),
            "--header",
            f"Authorization: Bearer {token}",
            # a time-out is schemathesis' failure: on a loaded machine an answer may take
            # seconds, and how fast the API answers is not what this run checks
            "--request-timeout",
            "60",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 0, out[-20000:]
    operations = sum(len(item) for item in _document()["paths"].values())
    assert f"Tested: {operations}" in out, out[-3000:]  # the whole document


def _document() -> dict[str, Any]:
    return create_app(Settings(database_url="sqlite+aiosqlite://")).openapi()
