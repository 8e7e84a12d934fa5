"""The seeded dice (RULES.md §12), the scripted test double and the roll-number bookkeeping."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.rules import dice as dice_module
from app.rules.dice import (
    DiceExhausted,
    DiceSource,
    Roller,
    ScriptedDice,
    SeededDice,
    _d6_from_digests,
    _digests,
    seed_commitment,
)

# The reference vectors are test data of this repository, so a plain clone runs every test.
VECTORS_PATH = Path(__file__).resolve().parent / "data" / "dice-vectors.json"
# Where the project's source documents are at hand (a checkout with ../shared beside it, or
# PINGDUEL_SHARED_DIR naming that folder), the copy here must match the published vectors.
SHARED_DIR = Path(
    os.environ.get("PINGDUEL_SHARED_DIR") or Path(__file__).resolve().parents[3] / "shared"
)
SHARED_VECTORS = SHARED_DIR / "dice-vectors.json"
ZERO_SEED = bytes(32)


def _load_cases(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    cases: list[dict[str, Any]] = data["cases"]
    return cases


CASES = _load_cases(VECTORS_PATH)


def test_vectors_file_has_cases() -> None:
    assert len(CASES) == 3
    assert all(len(case["rolls"]) > 0 for case in CASES)


@pytest.mark.skipif(not SHARED_VECTORS.is_file(), reason=f"no {SHARED_VECTORS} beside this clone")
def test_vectors_match_the_published_ones() -> None:
    assert _load_cases(SHARED_VECTORS) == CASES


@pytest.mark.parametrize("case", CASES, ids=[c["game_id"] for c in CASES])
def test_reference_rolls_reproduced(case: dict[str, Any]) -> None:
    dice = SeededDice.from_hex(case["seed"], case["game_id"])
    rolls = [dice.d6(k) for k in range(len(case["rolls"]))]
    assert rolls == case["rolls"]


@pytest.mark.parametrize("case", CASES, ids=[c["game_id"] for c in CASES])
def test_reference_commitments(case: dict[str, Any]) -> None:
    assert seed_commitment(bytes.fromhex(case["seed"])) == case["commitment"]


@pytest.mark.parametrize("case", CASES, ids=[c["game_id"] for c in CASES])
def test_rolls_are_random_access(case: dict[str, Any]) -> None:
    # Counter-based: roll k does not depend on which rolls were read before it.
    dice = SeededDice.from_hex(case["seed"], case["game_id"])
    expected = case["rolls"]
    for k in reversed(range(len(expected))):
        assert dice.d6(k) == expected[k]


def test_from_hex_matches_bytes_constructor() -> None:
    seed_hex = CASES[2]["seed"]
    a = SeededDice.from_hex(seed_hex, "g")
    b = SeededDice(bytes.fromhex(seed_hex), "g")
    assert [a.d6(k) for k in range(50)] == [b.d6(k) for k in range(50)]


def test_game_id_changes_the_rolls() -> None:
    a = SeededDice(ZERO_SEED, "g1")
    b = SeededDice(ZERO_SEED, "g2")
    assert [a.d6(k) for k in range(40)] != [b.d6(k) for k in range(40)]


@pytest.mark.parametrize("length", [0, 16, 31, 33, 64])
def test_seed_must_be_32_bytes(length: int) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        SeededDice(bytes(length), "g")
    with pytest.raises(ValueError, match="32 bytes"):
        seed_commitment(bytes(length))


@pytest.mark.parametrize("seed_hex", ["zz" * 32, "0" * 63, "00" * 31, "00" * 33])
def test_from_hex_rejects_bad_seeds(seed_hex: str) -> None:
    with pytest.raises(ValueError):
        SeededDice.from_hex(seed_hex, "g")


def test_negative_roll_number_is_refused() -> None:
    with pytest.raises(ValueError, match="start at 0"):
        SeededDice(ZERO_SEED, "g").d6(-1)


def test_repr_does_not_leak_the_seed() -> None:
    seed_hex = CASES[2]["seed"]
    text = repr(SeededDice.from_hex(seed_hex, "g"))
    assert seed_hex not in text
    assert "g" in text


def test_seeded_dice_is_a_dice_source() -> None:
    source: DiceSource = SeededDice(ZERO_SEED, "g")
    assert 1 <= source.d6(0) <= 6


# -- the byte-skipping rule and the all-skipped continuation --------------------------------------


def test_bytes_252_and_above_are_skipped() -> None:
    digest = bytes([252, 253, 254, 255, 7]) + bytes(27)
    assert _d6_from_digests([digest]) == 7 % 6 + 1


@pytest.mark.parametrize("b", [0, 1, 5, 6, 245, 250, 251])
def test_first_usable_byte_maps_to_b_mod_6_plus_1(b: int) -> None:
    assert _d6_from_digests([bytes([b]) + bytes([255] * 31)]) == b % 6 + 1


def test_all_skipped_digest_continues_with_the_next() -> None:
    all_skipped = bytes([252, 253, 254, 255] * 8)
    assert _d6_from_digests([all_skipped, bytes([255, 11]) + bytes(30)]) == 11 % 6 + 1
    assert _d6_from_digests([all_skipped, all_skipped, bytes([3] * 32)]) == 3 % 6 + 1


def test_finite_digests_all_skipped_is_an_error() -> None:
    with pytest.raises(ValueError, match="below 252"):
        _d6_from_digests([bytes([255] * 32)])


def test_digest_stream_messages() -> None:
    stream = _digests(ZERO_SEED, "g1", 5)
    got = [next(stream) for _ in range(3)]
    expected = [
        hmac.new(ZERO_SEED, msg, hashlib.sha256).digest() for msg in (b"g1:5", b"g1:5:1", b"g1:5:2")
    ]
    assert got == expected


def test_seeded_dice_follows_the_continuation(monkeypatch: pytest.MonkeyPatch) -> None:
    real_digest = dice_module._digest
    asked: list[str] = []

    def fake_digest(seed: bytes, msg: str) -> bytes:
        asked.append(msg)
        if msg in ("g:4", "g:4:1"):
            return bytes([255] * 32)  # every byte skipped
        return real_digest(seed, msg)

    monkeypatch.setattr(dice_module, "_digest", fake_digest)
    value = SeededDice(ZERO_SEED, "g").d6(4)
    assert asked == ["g:4", "g:4:1", "g:4:2"]
    assert value == _d6_from_digests([real_digest(ZERO_SEED, "g:4:2")])


def test_distribution_sanity() -> None:
    dice = SeededDice(ZERO_SEED, "distribution")
    counts = Counter(dice.d6(k) for k in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # Expected 1000 each (sd about 29); the seed is fixed, so this is deterministic.
    assert all(850 <= n <= 1150 for n in counts.values()), counts


# -- ScriptedDice -----------------------------------------------------------------------------


def test_scripted_dice_plays_back_in_request_order_ignoring_k() -> None:
    dice = ScriptedDice([6, 1, 3])
    assert dice.remaining == 3
    assert [dice.d6(10), dice.d6(2), dice.d6(99)] == [6, 1, 3]
    assert dice.requested == [10, 2, 99]
    assert dice.remaining == 0


def test_scripted_dice_exhaustion() -> None:
    dice = ScriptedDice([4])
    dice.d6(0)
    with pytest.raises(DiceExhausted, match=r"ran out: roll 1 .* all 1 scripted dice"):
        dice.d6(1)
    assert dice.requested == [0]  # the refused request is not recorded as served


def test_empty_scripted_dice_is_exhausted_at_once() -> None:
    with pytest.raises(DiceExhausted):
        ScriptedDice([]).d6(0)


@pytest.mark.parametrize("bad", [0, 7, -1, True])
def test_scripted_dice_rejects_non_d6_values(bad: int) -> None:
    with pytest.raises(ValueError, match="1 to 6"):
        ScriptedDice([1, bad])


def test_scripted_dice_accepts_any_iterable() -> None:
    dice = ScriptedDice(v for v in (2, 5))
    assert dice.remaining == 2


# -- Roller ------------------------------------------------------------------------------------


def test_roller_bookkeeping() -> None:
    source = ScriptedDice([1, 2, 3, 4, 5, 6])
    roller = Roller(source, start=17)
    assert roller.next == 17
    assert roller.used == []
    assert roller.d6() == 1
    m = roller.mark()
    assert m == 1
    assert roller.pool(3) == (2, 3, 4)
    assert roller.since(m) == [18, 19, 20]
    assert roller.used == [17, 18, 19, 20]
    assert roller.next == 21
    assert source.requested == [17, 18, 19, 20]
    assert roller.pool(0) == ()
    assert roller.since(roller.mark()) == []


def test_roller_with_seeded_dice_reads_roll_numbers_from_start() -> None:
    case = CASES[0]
    roller = Roller(SeededDice.from_hex(case["seed"], case["game_id"]), start=10)
    assert roller.pool(5) == tuple(case["rolls"][10:15])
    assert roller.used == [10, 11, 12, 13, 14]


def test_roller_does_not_burn_a_roll_number_on_failure() -> None:
    roller = Roller(ScriptedDice([3]), start=0)
    roller.d6()
    with pytest.raises(DiceExhausted):
        roller.d6()
    assert roller.next == 1
    assert roller.used == [0]


def test_roller_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError):
        Roller(ScriptedDice([]), start=-1)
    with pytest.raises(ValueError):
        Roller(ScriptedDice([]), start=0).pool(-1)
