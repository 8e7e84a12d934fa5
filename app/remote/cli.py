"""``pingduel bot``: the options, the seat token, and the run's one line of outcome.

The token comes from ``PINGDUEL_BOT_TOKEN`` or ``--token-file``, never from the command line
(where other users of the machine, and shell histories, would see it), and no message prints
it. Exit status: 0 the game finished; 1 the strategy's bug (it failed or sent nothing, or the
server refused its command: the problem is shown); 2 bad options, a token or game the server
refuses, or a server that is away.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import secrets
import sys
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from app.bot import STRATEGIES, strategy
from app.remote.api import Fatal, Note, Refused, SeatApi, Sleep
from app.remote.host import Clock, Finished, Host, StrategyFailed

TOKEN_ENV = "PINGDUEL_BOT_TOKEN"
_TOKEN = re.compile(r"[\x21-\x7e]{1,512}")  # what an Authorization header can carry
_SPACE = re.compile(r"[\s\x00-\x1f\x7f]")
_GAME_ID = re.compile(r"[^\x00-\x1f\x7f]{1,64}")
REQUEST_TIMEOUT = httpx.Timeout(30.0)


class BadInput(Exception):
    """An option or the token is unusable: said in words, exit 2."""


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bot = commands.add_parser(
        "bot",
        help="play one seat of a game on a server with a computer strategy",
        description=f"The seat's token is read from ${TOKEN_ENV} or --token-file.",
    )
    bot.add_argument("--url", required=True, help="the server, e.g. https://duel.example")
    bot.add_argument("--game", required=True, metavar="GAME_ID", help="the game id")
    bot.add_argument(
        "--strategy",
        default="cadet",
        metavar="NAME",
        help=f"one of {', '.join(sorted(STRATEGIES))} (cadet)",
    )
    bot.add_argument("--seed", type=int, metavar="N", help="the strategy's seed (random)")
    bot.add_argument(
        "--delay-scale", type=float, default=1.0, metavar="F", help="scales the release delays (1)"
    )
    bot.add_argument("--token-file", type=Path, metavar="PATH", help="a file holding the token")


def read_token(path: Path | None) -> str:
    """The seat token: the file's (first line) if given, else the environment's."""
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise BadInput(
                f"--token-file {path}: cannot read it ({type(error).__name__})"
            ) from None
        where = f"--token-file {path}"
    else:
        text = os.environ.get(TOKEN_ENV, "")
        where = f"${TOKEN_ENV}"
        if not text.strip():
            raise BadInput(f"no seat token: set ${TOKEN_ENV}, or pass --token-file PATH")
    lines = text.strip().splitlines()
    token = lines[0].strip() if lines else ""
    if not _TOKEN.fullmatch(token):
        raise BadInput(f"{where}: not a seat token (empty, or with spaces or other characters)")
    return token


def checked(args: argparse.Namespace) -> tuple[str, str, float]:
    """The server's base URL, the game id and the delay scale, or ``BadInput``."""
    url = args.url.strip().rstrip("/")
    wrong = BadInput(f"--url {args.url!r}: give the server's http(s) address")
    try:
        parts = urlsplit(url)
        _ = parts.port  # a port that is not a number is refused here
    except ValueError:
        raise wrong from None
    if parts.scheme not in ("http", "https") or not parts.hostname or _SPACE.search(url):
        raise wrong
    if not _GAME_ID.fullmatch(args.game):
        raise BadInput("--game: a game id is 1 to 64 characters")
    if not (math.isfinite(args.delay_scale) and 0 <= args.delay_scale <= 100):
        raise BadInput("--delay-scale: a number from 0 to 100")
    return url, args.game, args.delay_scale


async def play_seat(
    url: str,
    game_id: str,
    token: str,
    name: str,
    seed: int,
    delay_scale: float,
    *,
    http: httpx.AsyncClient | None = None,
    clock: Clock | None = None,
    sleep: Sleep | None = None,
    note: Note | None = None,
) -> Finished:
    """Play the seat to the game's end (the tests pass their own client, clock and sleep)."""
    player = strategy(name)
    own = http is None
    client = http or httpx.AsyncClient(timeout=REQUEST_TIMEOUT, follow_redirects=False)
    try:
        api = SeatApi(client, url, game_id, token, sleep or asyncio.sleep, note or Say(token))
        rng = random.Random(seed)
        host = Host(api, player, rng, delay_scale=delay_scale, clock=clock, sleep=sleep)
        return await host.play()
    finally:
        if own:
            await client.aclose()


class Say:
    """A line on stderr, with the token blanked out should anything ever carry it."""

    def __init__(self, token: str = "") -> None:
        self.token = token

    def __call__(self, text: str, prefix: str = "pingduel bot: ") -> None:
        if self.token:
            text = text.replace(self.token, "<the seat token>")
        print(f"{prefix}{text}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    say = Say()
    try:
        url, game_id, scale = checked(args)
        say.token = read_token(args.token_file)
        strategy(args.strategy)  # an unknown name is refused before anything is sent
    except (BadInput, ValueError) as error:
        say(str(error))
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    print(f"playing game {game_id} on {url} as {args.strategy} (seed {seed})", flush=True)
    try:
        game = play_seat(url, game_id, say.token, args.strategy, seed, scale, note=say)
        finished = asyncio.run(game)
    except Fatal as error:
        say(str(error))
        return 2
    except httpx.HTTPError as error:  # one the retries do not cover (an answer it cannot read)
        say(f"the server's answer could not be read: {type(error).__name__}: {error}")
        return 2
    except Refused as error:
        sent = json.dumps(error.command)
        say(f"the server refused a command of {args.strategy} (a bug of the strategy): {sent}")
        say(error.body, prefix="")
        return 1
    except StrategyFailed as error:
        say(str(error))
        return 1
    except KeyboardInterrupt:
        return 130
    print(finished.line(), flush=True)
    return 0
