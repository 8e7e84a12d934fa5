"""``pingduel bot`` against a live server: two bot processes play a whole game over HTTP and
the stream, one per seat, and the game they leave behind is finished and replays. A token the
server refuses ends the run with a clear message that never shows the token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.api.helpers import new_game
from tests.api.replay_check import assert_replays
from tests.conftest import ROOT, LiveServer, free_port

GAME_TIMEOUT = 240  # seconds: bounds a failure only; the game takes a few seconds


def bot(server: LiveServer, game_id: str, *args: str, **env: str) -> subprocess.Popen[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PINGDUEL_")}
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "bot", "--url", server.url, "--game", game_id, *args],
        cwd=ROOT,
        env={**base, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=GAME_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"the bot did not finish:\n{out}\n{err}")
    return proc.returncode, out, err


async def test_two_bots_play_a_whole_game_over_http(
    live_server: LiveServer, db_url: str, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:
        duel = await new_game(client, {"scenario": "skirmish", "turn_limit": 4})
    token_file = tmp_path / "b.token"
    token_file.write_text(duel.tokens["B"] + "\n")
    common = ("--strategy", "cadet", "--delay-scale", "0")
    a = bot(live_server, duel.game_id, *common, "--seed", "1", PINGDUEL_BOT_TOKEN=duel.tokens["A"])
    b = bot(live_server, duel.game_id, *common, "--seed", "2", "--token-file", str(token_file))
    results = [finish(a), finish(b)]
    for code, out, err in results:
        assert code == 0, f"{out}\n{err}"
        assert f"game {duel.game_id} finished" in out, out
        for token in duel.tokens.values():
            assert token not in out + err
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:
        view = (await client.get(duel.path, headers=duel.auth("A"))).json()
    assert view["status"] == "finished"
    assert view["winner"] in ("A", "B", "draw")
    assert_line = f"({view['finish_reason']})"
    assert all(assert_line in out for _, out, _ in results)
    await assert_replays(db_url, duel.game_id)


async def test_a_refused_token_ends_the_run_clearly_without_showing_it(
    live_server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:
        duel = await new_game(client, {"scenario": "duel"})
    wrong = "not-a-seat-token-" + "q" * 40
    code, out, err = finish(bot(live_server, duel.game_id, PINGDUEL_BOT_TOKEN=wrong))
    assert code == 2
    assert "invalid_token" in err and "Traceback" not in err
    assert wrong not in out + err
    code, out, err = finish(bot(live_server, "no-such-game", PINGDUEL_BOT_TOKEN=wrong))
    assert code == 2 and "Traceback" not in err
    assert wrong not in out + err


def test_no_token_and_bad_options_are_refused_before_anything_is_sent(tmp_path: Path) -> None:
    def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        base = {k: v for k, v in os.environ.items() if not k.startswith("PINGDUEL_")}
        return subprocess.run(
            [sys.executable, "-m", "app.cli", "bot", *args],
            cwd=ROOT,
            env={**base, **env},
            capture_output=True,
            text=True,
            timeout=60,
        )

    where = ("--url", f"http://127.0.0.1:{free_port()}", "--game", "g1")  # nobody listens
    no_token = run(*where)
    assert no_token.returncode == 2 and "PINGDUEL_BOT_TOKEN" in no_token.stderr
    missing = run(*where, "--token-file", str(tmp_path / "absent"))
    assert missing.returncode == 2 and "--token-file" in missing.stderr
    unknown = run(*where, "--strategy", "admiral", PINGDUEL_BOT_TOKEN="t" * 43)
    assert unknown.returncode == 2 and "cadet" in unknown.stderr
    bad_url = run("--url", "ftp://x", "--game", "g1", PINGDUEL_BOT_TOKEN="t" * 43)
    assert bad_url.returncode == 2 and "--url" in bad_url.stderr
    spaced = run("--url", "http://exa mple", "--game", "g1", PINGDUEL_BOT_TOKEN="t" * 43)
    assert spaced.returncode == 2 and "--url" in spaced.stderr
    assert "--token" not in run("--help").stdout.replace("--token-file", "")
    nobody = run(*where, PINGDUEL_BOT_TOKEN="t" * 43)  # a few tries, then it says so
    assert nobody.returncode == 2 and "gave up" in nobody.stderr
    for result in (no_token, missing, unknown, bad_url, spaced, nobody):
        assert "Traceback" not in result.stderr
