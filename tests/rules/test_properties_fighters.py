"""Properties of random games with fighter and drone bays (RULES §9.8; issue 13), over
Hypothesis seeds and the "Carrier hunt".

Random legal designs carry one or two bays each, of random group types (``randplay.random_bays``);
the random player launches, orders and lands groups, picks their targets in the fighters step
and intercepts with them.

1. No engine error: every random game plays to its end.
2. No leak: property 1 of ``test_properties``, its oracle extended here (``GroupTracker``,
   ``check_groups``) — an enemy group's position reaches a seat only while the group is live,
   what a bay holds never (its group type, strength, CEF, whether it is empty), nor a group's
   mother, bay or CEF, nor its type before it is shown (F11).
3. Replay determinism, and every die verifiable from the record.
4. Conservation (RULES §9.8): craft launched = craft alive in flight + craft lost + craft landed;
   step 2 only moves craft between bays and flight, nothing ever makes craft, and each launch
   takes exactly what its bay held.
Meta-tests plant a leak of each new kind and a craft made from nothing: the checks must fail.
"""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from app.rules import GameSetup, SeededDice, evolve, redact, replay, view
from app.rules.dice import seed_commitment
from app.rules.events import Event
from app.rules.record import verify_dice
from app.rules.snapshot import state_from_dict, state_to_dict
from app.rules.state import GameState
from tests.rules.helpers import Emit, hook_emit
from tests.rules.randplay import Step, random_game, random_setup
from tests.rules.test_properties import (
    GROUP_KINDS,
    OBSERVERS,
    Pair,
    SecretTracker,
    _distinctive,
    _pair,
    leak_checked_game,
    owns,
    pairs_in,
    walk,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
movements = st.sampled_from(("cinematic", "vector"))
# no shrinking: a whole game is one example, and shrinking one takes many minutes
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
few = settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
    phases=NO_SHRINK,
)
BAY_TYPES = frozenset({"fighter_bay", "drone_bay"})
# the events in which craft may be lost: kills by defences, dogfights and fire at groups, a
# drone group spent or a mother gone (marker_removed), a bay failing with its group (loads_lost)
LOSS_EVENTS = frozenset(
    {
        "defence_resolved",
        "dogfight",
        "fighters_attack",
        "groups_hit",
        "marker_removed",
        "loads_lost",
    }
)
# what nobody but a group's side may ever read of it (RULES §9.8)
GROUP_SECRETS = frozenset({"mother", "bay", "cef", "aim"})


def fighter_setup(seed: int, movement: str) -> GameSetup:
    return random_setup(random.Random(seed), movement, fighters=True)


# -- 2. the oracle, extended ---------------------------------------------------------------------
class GroupTracker(SecretTracker):
    """``SecretTracker`` plus the groups: every point a side's group has held (from its step 2's
    ``ordnance_acted`` items: secret), and the points made public — a live group's position
    (sighted, pinged, attacking, engaged), where contact was lost, revealed ships."""

    def __init__(self) -> None:
        super().__init__()
        self.group_points: dict[str, set[Pair]] = {"A": set(), "B": set()}
        self.public_pairs: set[Pair] = set()

    def _public_point(self, p: dict[str, Any]) -> None:
        self.public_pairs.add(_pair(p))
        for v in (p["x"], p["y"]):
            text = _distinctive(v)
            if text is not None:
                self.public.add(text)

    def feed_ordnance(self, event: Event, before: GameState, after: GameState) -> None:
        super().feed_ordnance(event, before, after)
        d = event.data
        if event.type == "ordnance_acted":
            side = before.ship(d["ship"]).side
            for item in d["markers"]:
                if item["kind"] in GROUP_KINDS:
                    self.group_points[side] |= {_pair(item["from"]), _pair(item["to"])}
        elif event.type in ("ship_revealed", "ping"):
            self.public_pairs.add(_pair(d["position"]))
        elif event.type == "contact_lost" and d.get("at"):
            self._public_point(d["at"])
        for m in after.markers:
            if m.kind in GROUP_KINDS and m.live:
                self._public_point(m.position.to_dict())

    def hidden_group_points(self, seat: str) -> set[Pair]:
        """The other sides' group points not made public (nor known to the seat anyway)."""
        out: set[Pair] = set()
        for side in ("A", "B"):
            if not owns(seat, side):
                out |= self.group_points[side]
        return out - self.public_pairs - self.points.known(seat)


def _enemy_groups(state: GameState, seat: str) -> dict[str, Any]:
    return {
        m.id: m
        for m in state.markers
        if m.kind in GROUP_KINDS and seat != "referee" and not owns(seat, m.side)
    }


def group_leaks(obj: Any, state: GameState, seat: str, path: str = "") -> list[str]:
    """Where ``obj`` tells the seat what only a group's side may know: an enemy group's mother,
    bay, CEF or aim, its type before it is shown, or any ship's ``bays`` it does not own."""
    enemy = _enemy_groups(state, seat)
    out: list[str] = []
    if isinstance(obj, dict):
        named = obj.get("id", obj.get("marker"))
        if isinstance(named, str) and named in enemy:
            m = enemy[named]
            out += [f"{path}.{k}" for k in GROUP_SECRETS & set(obj)]
            for key in ("type", "group"):
                if key in obj and obj[key] is not None and not m.type_shown:
                    out.append(f"{path}.{key}={obj[key]} before it is shown")
        if "bays" in obj and obj.get("side") not in (seat, None):
            out.append(f"{path}.bays")
        for key, value in obj.items():
            out += group_leaks(value, state, seat, f"{path}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            out += group_leaks(value, state, seat, f"{path}[{i}]")
    return out


def bay_loads_shown(v: dict[str, Any], seat: str) -> list[str]:
    """The group type of a bay of a ship the seat does not own, in its view's designs."""
    return [
        f"{ship['id']}.{s['id']}={s['load']}"
        for ship in v["ships"]
        if not owns(seat, ship["side"])
        for s in ship["design"]["systems"]
        if s["type"] in BAY_TYPES and s.get("load") is not None
    ]


def check_groups(step: Step, tracker: GroupTracker) -> None:
    """The fighters' part of property 1 for one command (after ``check_no_leak`` fed the
    tracker): every event and the view as each seat receives them."""
    for event, _, after in walk(step):
        for seat in OBSERVERS:
            r = redact(event, seat, after)
            where = f"{event.type} #{event.seq} as {seat} gets it"
            leaks = group_leaks(r["data"], after, seat)
            assert not leaks, f"{where}: {leaks}"
            found = pairs_in(r["data"]) & tracker.hidden_group_points(seat)
            assert not found, f"{where}: another side's group point {sorted(found)}"
    state = step.after
    for seat in OBSERVERS:
        v = view(state, seat)
        where = f"{seat}'s view at seq {state.seq}"
        assert not group_leaks(v, state, seat), f"{where}: {group_leaks(v, state, seat)}"
        assert not bay_loads_shown(v, seat), f"{where}: bay loads {bay_loads_shown(v, seat)}"
        found = pairs_in(v) & tracker.hidden_group_points(seat)
        assert not found, f"{where}: another side's group point {sorted(found)}"
        enemy = _enemy_groups(state, seat)
        for shown in v.get("markers", []):
            if shown["id"] in enemy:
                truth = enemy[shown["id"]]
                assert truth.live, f"{where}: a group that is not live {shown}"
                assert shown["position"] == truth.position.to_dict(), f"{where}: {shown}"
                assert shown["strength"] == truth.strength, f"{where}: {shown}"
        for ship in v["ships"]:
            if seat in ("A", "B") and owns(seat, ship["side"]):
                truth_ship = state.ship(ship["id"])
                held = {k: b for k, b in ship.get("bays", {}).items() if b is not None}
                assert set(held) == set(truth_ship.bays), f"{where}: own bays of {ship['id']}"


def fighter_leak_checked_game(seed: int, setup: GameSetup | str, movement: str) -> GameState:
    tracker = GroupTracker()
    return leak_checked_game(
        seed, setup, movement, tracker=tracker, extra=lambda step: check_groups(step, tracker)
    )


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
    phases=NO_SHRINK,
)
@given(seed=seeds, movement=movements)
def test_random_fighter_games_leak_nothing(seed: int, movement: str) -> None:
    fighter_leak_checked_game(seed, fighter_setup(seed, movement), movement)


@pytest.mark.parametrize("movement", ["cinematic", "vector"])
def test_carrier_hunts_leak_nothing(movement: str) -> None:
    fighter_leak_checked_game(3, "carrier_hunt", movement)


def _busy_seed() -> int:
    """The first seed whose random fighter game launches groups, opens the fighters step and
    shows an enemy group live: the meta-tests plant their leaks in it. Found, not fixed, so that
    a change to the random player does not silently empty them."""
    for seed in range(1, 80):
        _, events = random_game(random.Random(seed), fighter_setup(seed, "cinematic"))
        types = {e.type for e in events}
        launched = any(
            item["result"] == "launched"
            for e in events
            if e.type == "ordnance_acted"
            for item in e.data["markers"]
        )
        if launched and {"fighters_step", "fighters_sighted"} <= types:
            return seed
    raise AssertionError("no random fighter game below seed 80 sights a group and chooses")


BUSY_SEED = _busy_seed()


def test_the_busy_game_launches_sights_and_chooses() -> None:
    _, events = random_game(random.Random(BUSY_SEED), fighter_setup(BUSY_SEED, "cinematic"))
    types = {e.type for e in events}
    assert {"fighters_step", "fighters_sighted", "fighters_chosen"} <= types


def _leaks(monkeypatch: pytest.MonkeyPatch, module: str, name: str, wrap: Any) -> None:
    mod = importlib.import_module(module)
    monkeypatch.setattr(mod, name, wrap(getattr(mod, name)))


def test_the_oracle_catches_an_enemy_groups_cef(monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta: a view that hands the other side a live group's CEF and mother must fail."""
    shown = importlib.import_module("app.rules.fighters.shown")

    def wrap(honest: Any) -> Any:
        def leaky(m: Any) -> dict[str, Any]:
            out: dict[str, Any] = honest(m)
            return {**out, "cef": m.cef, "mother": m.mother}

        return leaky

    _leaks(monkeypatch, "app.rules.fighters.shown", "public_group", wrap)
    for module in ("app.rules.fighters.view", "app.rules.fog", "app.rules.ordnance.view"):
        mod = importlib.import_module(module)
        if hasattr(mod, "public_group"):
            monkeypatch.setattr(mod, "public_group", shown.public_group)
    with pytest.raises(AssertionError, match=r"cef|mother"):
        fighter_leak_checked_game(BUSY_SEED, fighter_setup(BUSY_SEED, "cinematic"), "cinematic")


def test_the_oracle_catches_enemy_groups_shown_while_not_live(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Meta: a view that shows the other side everything in flight must fail."""

    def wrap(honest: Any) -> Any:
        def leaky(state: GameState, seat: str) -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = honest(state, "referee")
            return out

        return leaky

    _leaks(monkeypatch, "app.rules.fog", "markers_view", wrap)
    with pytest.raises(AssertionError, match=r"not live|hidden coordinate|marker id|group"):
        fighter_leak_checked_game(BUSY_SEED, fighter_setup(BUSY_SEED, "cinematic"), "cinematic")


def test_the_oracle_catches_a_group_point_in_a_public_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Meta: a group's position slipped, to one decimal, into a public event must fail (the
    numeric comparison, not the text scan, finds it). The first random game in which a group
    stands somewhere never made public is the one that must fail."""
    # points that may be public: where groups were live, where ships were seen (the random
    # player sends groups to enemies' last known positions)
    seen: set[Pair] = set()
    planted: list[Pair] = []

    def chatty(self: Any, kind: str, data: dict[str, Any], turn: int | None, emit: Emit) -> Event:
        seen.update(_pair(m.position.to_dict()) for m in self.state.markers if m.live)
        seen.update(_pair(s.last_known.to_dict()) for s in self.state.ships if s.last_known)
        groups = [
            m
            for m in self.state.markers
            if m.kind in GROUP_KINDS
            and _pair(m.position.to_dict()) not in seen
            and m.position != m.aim
        ]
        if kind == "activation_ended" and groups:
            p = groups[0].position
            data = {**data, "note": {"x": round(p.x, 1), "y": round(p.y, 1)}}
            planted.append(_pair(data["note"]))
        event: Event = emit(self, kind, data, turn)
        return event

    hook_emit(monkeypatch, chatty)
    for seed in range(1, 30):
        seen.clear()
        try:
            fighter_leak_checked_game(seed, fighter_setup(seed, "cinematic"), "cinematic")
        except AssertionError as caught:
            assert planted and "group point" in str(caught), caught
            return
        assert not planted, f"seed {seed}: a group point {planted[0]} went out unnoticed"
    raise AssertionError("no random fighter game below seed 30 hides a group somewhere")


def test_the_oracle_catches_enemy_bays_in_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta: a view of the other side's ships with their bays' contents must fail."""
    fog = importlib.import_module("app.rules.fog")
    honest = fog.ship_view

    def leaky(state: GameState, ship: Any, seat: str) -> dict[str, Any]:
        out: dict[str, Any] = honest(state, ship, seat)
        if seat in ("A", "B") and ship.side != seat:
            out["bays"] = {k: b.to_dict() for k, b in ship.bays.items()}
        return out

    monkeypatch.setattr(fog, "ship_view", leaky)
    with pytest.raises(AssertionError, match=r"bays|extra keys"):
        fighter_leak_checked_game(BUSY_SEED, fighter_setup(BUSY_SEED, "cinematic"), "cinematic")


# -- 3 and 4. replay, dice, conservation ----------------------------------------------------------
def _flight(state: GameState, side: str) -> int:
    return sum(m.strength for m in state.markers if m.kind in GROUP_KINDS and m.side == side)


def _aboard(state: GameState, side: str) -> int:
    return sum(b.strength for s in state.ships if s.side == side for b in s.bays.values())


class CraftLedger:
    """RULES §9.8's conservation, checked after each event: craft launched = craft alive in
    flight + craft lost in flight + craft landed, per side; step 2 (``ordnance_acted``) moves
    craft between bays and flight and loses none; nothing ever adds craft; a launch takes what
    its bay held and a landing puts the group's craft back aboard."""

    def __init__(self, start: GameState) -> None:
        self.launched = {"A": 0, "B": 0}
        self.landed = {"A": 0, "B": 0}
        self.lost = {"A": 0, "B": 0}
        self.lost_aboard = {"A": 0, "B": 0}
        self.loss_events: set[str] = set()
        for ship in start.ships:
            bays = [s for s in ship.systems if s.type in BAY_TYPES]
            assert len(ship.bays) == len(bays), f"{ship.id} starts with a group in every bay"
            assert all(b.strength == 6 for b in ship.bays.values()), ship.bays

    def feed(self, event: Event, before: GameState, after: GameState) -> None:
        where = f"{event.type} #{event.seq}"
        launched = {"A": 0, "B": 0}
        landed = {"A": 0, "B": 0}
        if event.type == "ordnance_acted":
            mother = before.ship(event.data["ship"])
            for item in event.data["markers"]:
                if item["kind"] not in GROUP_KINDS:
                    continue
                if item["result"] == "launched":
                    bay = mother.bays.get(item["bay"])
                    assert bay is not None, f"{where}: {item['bay']} launched from empty"
                    assert item["strength"] == bay.strength, f"{where}: {item}"
                    assert item["bay"] not in after.ship(mother.id).bays, where
                    launched[mother.side] += bay.strength
                elif item["result"] == "landed":
                    m = before.marker(item["marker"])
                    aboard = after.ship(mother.id).bays[item["bay"]]
                    assert aboard.strength == m.strength, f"{where}: {item}, aboard {aboard}"
                    landed[mother.side] += m.strength
        for side in ("A", "B"):
            d_flight = _flight(after, side) - _flight(before, side)
            d_aboard = _aboard(after, side) - _aboard(before, side)
            lost = launched[side] - landed[side] - d_flight
            lost_aboard = landed[side] - launched[side] - d_aboard
            assert lost >= 0 and lost_aboard >= 0, f"{where}: craft from nothing ({side})"
            if event.type == "ordnance_acted":
                assert lost == lost_aboard == 0, f"{where}: step 2 lost craft ({side})"
            if lost or lost_aboard:
                assert event.type in LOSS_EVENTS, f"{where}: {side} lost craft in it"
                self.loss_events.add(event.type)
            self.launched[side] += launched[side]
            self.landed[side] += landed[side]
            self.lost[side] += lost
            self.lost_aboard[side] += lost_aboard
            alive = _flight(after, side)
            assert self.launched[side] == alive + self.lost[side] + self.landed[side], where


def checked_game(seed: int, setup: GameSetup, movement: str) -> CraftLedger:
    seed_bytes = random.Random(seed ^ 0x5EED).randbytes(32)
    game_id = f"rand-{random.Random(seed).getrandbits(32):08x}"  # random_game's first draw
    ledgers: list[CraftLedger] = []

    def check(step: Step) -> None:
        if not ledgers:
            ledgers.append(CraftLedger(step.before))
        for event, before, after in walk(step):
            ledgers[0].feed(event, before, after)

    final, events = random_game(
        random.Random(seed), setup, SeededDice(seed_bytes, game_id), on_step=check
    )
    assert events[0].data["game_id"] == game_id
    assert not [m for m in final.markers if m.kind in GROUP_KINDS], "groups left in flight"
    assert replay(events) == final
    stored = [Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]
    assert replay(stored) == final
    assert state_from_dict(json.loads(json.dumps(state_to_dict(final)))) == final
    record = [e.to_dict() for e in events]
    assert verify_dice(record, seed_bytes.hex(), game_id, seed_commitment(seed_bytes)) == []
    return ledgers[0]


@few
@given(seed=seeds, movement=movements)
def test_random_fighter_games_replay_verify_and_conserve_craft(seed: int, movement: str) -> None:
    checked_game(seed, fighter_setup(seed, movement), movement)


def test_carrier_hunts_replay_verify_and_conserve_craft() -> None:
    """Fixed Carrier hunts, in which groups launch, land and are lost: the ledger meets each."""
    seen: set[str] = set()
    launched = landed = lost = 0
    for seed in (1, 3):
        setup = GameSetup.from_scenario("carrier_hunt", "cinematic")
        ledger = checked_game(seed, setup, "cinematic")
        seen |= ledger.loss_events
        launched += sum(ledger.launched.values())
        landed += sum(ledger.landed.values())
        lost += sum(ledger.lost.values())
    assert launched and landed and lost, (launched, landed, lost)
    assert {"groups_hit", "dogfight"} <= seen, seen


def test_the_ledger_catches_craft_made_from_nothing() -> None:
    """Meta: a group whose strength grows without an event that explains it must fail."""
    _, events = random_game(random.Random(BUSY_SEED), fighter_setup(BUSY_SEED, "cinematic"))
    state = replay(events[:1])
    ledger = CraftLedger(state)
    for event in events[1:]:
        after = evolve(state, event)
        ledger.feed(event, state, after)
        state = after
        if any(m.kind in GROUP_KINDS for m in state.markers):
            break
    group = next(m for m in state.markers if m.kind in GROUP_KINDS)
    quiet = Event(state.seq + 1, state.turn, "standing_orders", {"side": "A", "auto_defend": True})
    from dataclasses import replace

    grown = replace(group, strength=group.strength + 1)
    after = replace(
        evolve(state, quiet),
        markers=tuple(grown if m.id == group.id else m for m in state.markers),
    )
    with pytest.raises(AssertionError, match="from nothing"):
        ledger.feed(quiet, state, after)
