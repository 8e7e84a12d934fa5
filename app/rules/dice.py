"""Dice: the game's seeded, counter-based d6 (RULES.md §12) and its test double.

Roll number k is a pure function of the secret seed, the game id and k, so the finished record
(seed plus the roll numbers each event lists) lets anyone recompute every die.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Iterator
from typing import Protocol

SEED_BYTES = 32
# 252 = 42 * 6: bytes at or above it are skipped so every face is equally likely.
_SKIP_FROM = 252


class DiceSource(Protocol):
    """Anything that can give roll number k (0-based, counted over the whole game)."""

    def d6(self, k: int) -> int: ...


def _digest(seed: bytes, msg: str) -> bytes:
    # ``hmac.digest`` is the one-shot C form of ``hmac.new(...).digest()``: the same bytes
    return hmac.digest(seed, msg.encode("utf-8"), "sha256")


def _digests(seed: bytes, game_id: str, k: int) -> Iterator[bytes]:
    """The digests roll k reads, in order: ``{game_id}:{k}``, then ``:1``, ``:2``, … (endless)."""
    yield _digest(seed, f"{game_id}:{k}")
    yield from _continuation(seed, game_id, k)


def _continuation(seed: bytes, game_id: str, k: int) -> Iterator[bytes]:
    """The digests after the first: ``{game_id}:{k}:1``, ``:2``, … (endless)."""
    extra = 1
    while True:
        yield _digest(seed, f"{game_id}:{k}:{extra}")
        extra += 1


def _d6_from_digests(digests: Iterable[bytes]) -> int:
    """The first byte below 252 across the digests, as ``b % 6 + 1``."""
    for digest in digests:
        for b in digest:
            if b < _SKIP_FROM:
                return b % 6 + 1
    # Only reachable with a finite iterable (the real stream is endless).
    raise ValueError("no byte below 252 in the digests: cannot read a d6")


def _check_roll_number(k: int) -> None:
    if k < 0:
        raise ValueError(f"roll numbers start at 0, got {k}")


class SeededDice:
    """The game's dice: HMAC-SHA256 of ``{game_id}:{k}`` keyed with the 32-byte secret seed."""

    __slots__ = ("_seed", "game_id")

    def __init__(self, seed: bytes, game_id: str) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(
                f"a game seed is {SEED_BYTES} bytes ({2 * SEED_BYTES} hex characters), "
                f"got {len(seed)} bytes"
            )
        self._seed = bytes(seed)
        self.game_id = game_id

    @classmethod
    def from_hex(cls, seed_hex: str, game_id: str) -> SeededDice:
        try:
            seed = bytes.fromhex(seed_hex)
        except ValueError as exc:
            raise ValueError(
                f"a game seed is {2 * SEED_BYTES} hex characters (0-9, a-f): {exc}"
            ) from None
        return cls(seed, game_id)

    def d6(self, k: int) -> int:
        _check_roll_number(k)
        # the first digest nearly always holds a byte below 252 (all 32 at or above it: about
        # one chance in 10^57): read inline, without the generators
        for b in _digest(self._seed, f"{self.game_id}:{k}"):
            if b < _SKIP_FROM:
                return b % 6 + 1
        return _d6_from_digests(_continuation(self._seed, self.game_id, k))

    def __repr__(self) -> str:
        # Never show the seed: it stays secret until the game ends.
        return f"SeededDice(game_id={self.game_id!r})"


def seed_commitment(seed: bytes) -> str:
    """The commitment published at creation: hex SHA-256 of the 32 seed bytes."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a game seed is {SEED_BYTES} bytes, got {len(seed)} bytes")
    return hashlib.sha256(seed).hexdigest()


class DiceExhausted(Exception):
    """A ScriptedDice was asked for more rolls than it was given."""


class ScriptedDice:
    """Test double: plays back fixed d6 values in the order they are requested, ignoring k."""

    def __init__(self, values: Iterable[int]) -> None:
        script = list(values)
        for i, v in enumerate(script):
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
                raise ValueError(f"scripted die #{i} is {v!r}: a d6 shows 1 to 6")
        self._script = script
        self._used = 0
        self.requested: list[int] = []

    @property
    def remaining(self) -> int:
        return len(self._script) - self._used

    def d6(self, k: int) -> int:
        if self._used >= len(self._script):
            raise DiceExhausted(
                f"ScriptedDice ran out: roll {k} was requested after all "
                f"{len(self._script)} scripted dice were used (rolls served: {self.requested}); "
                "script more dice"
            )
        value = self._script[self._used]
        self._used += 1
        self.requested.append(k)
        return value

    def __repr__(self) -> str:
        return f"ScriptedDice(remaining={self.remaining}, requested={self.requested})"


class Roller:
    """Draws consecutive roll numbers from a source and remembers which ones were used."""

    def __init__(self, source: DiceSource, start: int) -> None:
        _check_roll_number(start)
        self.source = source
        self.next = start
        self.used: list[int] = []

    def d6(self) -> int:
        k = self.next
        value = self.source.d6(k)
        # Advance only once the die is in: a failed draw must not burn a roll number.
        self.next = k + 1
        self.used.append(k)
        return value

    def pool(self, n: int) -> tuple[int, ...]:
        if n < 0:
            raise ValueError(f"cannot roll a pool of {n} dice")
        return tuple(self.d6() for _ in range(n))

    def mark(self) -> int:
        return len(self.used)

    def since(self, mark: int) -> list[int]:
        return self.used[mark:]
