"""``pingduel serve`` whose game and design ids follow a fixed sequence (tests only).

A game's dice are keyed by its seed *and its id* (roll k is HMAC(seed, "game_id:k"), RULES §12),
so a client seed alone gives the same dice each run only if the id is the same too. In-process
tests fix the id with ``tests.web.create_game(..., game_id=...)``; a live server (a subprocess)
cannot be patched from the test, so ``LiveServer(..., fixed_ids="name")`` starts it through this
module: the n-th id the server draws is a function of the name and n, in the alphabet and length
of ``app.play.tokens.new_id``. The same requests in the same order then give the same ids, and a
game created with a seed rolls the same dice each run. One process only (``--workers 1``): each
worker would draw the same sequence.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import sys

from app import cli
from app.play import tokens

ENV = "PINGDUEL_TEST_FIXED_IDS"
ALPHABET = "abcdefghijkmnopqrstuvwxyz23456789"  # app.play.tokens.new_id's


def fixed_ids(name: str) -> None:
    """From now on ``tokens.new_id`` draws the sequence of ``name``."""
    counter = itertools.count(1)

    def new_id() -> str:
        digest = hashlib.sha256(f"{name}:{next(counter)}".encode()).digest()
        return "".join(ALPHABET[b % len(ALPHABET)] for b in digest[:12])

    tokens.new_id = new_id


if __name__ == "__main__":
    fixed_ids(os.environ[ENV])
    sys.exit(cli.main())
