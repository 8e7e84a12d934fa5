"""A random player for whole games: only legal commands, chosen from each seat's own view.

``play`` is a generator that yields one ``Step`` per accepted command (seat, command, the events
it caused, the state before and after); ``random_game`` plays a game to its end and returns the
final state and the full log. The player is a client: it reads ``view(state, seat)`` — its
``phase.legal`` (commands, activatable ships, order limits, fire options) and its own ships'
truth — never the referee's state. Deployments are random points of the zone, orders random
among the legal ones (mostly staying on the table, now and then leaving it), fire a random
subset of the fire options (now and then one that breaks the one-target-per-fire-control rule,
then retried with fewer shots until accepted), with an occasional ``core_action`` and a rare
``resign``.

Two random sources: ``rng`` decides what the public can see (which ship, ping or move, when to
resign, how many shots), ``hidden_rng`` the secrets (deploy positions, orders). Two games with
the same ``rng`` seed and different ``hidden_rng`` seeds differ only in hidden facts, provided
that nothing hidden changes a public outcome (no shots, no ECM, no ping range, no leaving):
``public_only=True`` arranges the last three on the player's side.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.rules import (
    Decision,
    GameSetup,
    SeededDice,
    ShipEntry,
    decide,
    evolve,
    fog,
    game_started,
    start_state,
    view,
)
from app.rules.designs import Design, SystemSpec
from app.rules.dice import DiceSource
from app.rules.errors import IllegalOrders, RulesError
from app.rules.events import Event
from app.rules.geometry import ARCS, Table, Vec, Zone, heading_vector, target_in_arcs
from app.rules.movement import (
    CinematicOrders,
    VectorOrders,
    cinematic_limits,
    move_cinematic,
    move_vector,
    vector_limits,
)
from app.rules.state import GameState
from app.rules.systems import (
    DRONE_GROUPS,
    FIGHTER_GROUPS,
    HEAVY_MISSILE_TYPES,
    LAUNCHER_TYPES,
    SALVO_LOADS,
    SYSTEMS,
    WEAPON_TYPES,
    loads_of,
)

HEAVY_TYPES = tuple(HEAVY_MISSILE_TYPES)
# what a design keeps when it must drop its optional systems to fit a hull (launchers need their
# magazine, and fire control)
_KEPT = frozenset({"fire_control", "magazine", "fighter_bay", "drone_bay", *LAUNCHER_TYPES})
PROGRESS_COMMANDS = frozenset(
    {
        "deploy",
        "activate",
        "ping",
        "move",
        "end_activation",
        "fire",
        "markers",
        "defend",
        "fighters",
    }
)
BAY_TYPES = ("fighter_bay", "drone_bay")
EDGE_MARGIN = 4.0  # orders that end this far inside the table are preferred


class LivenessError(AssertionError):
    """The game is active but waits for nobody, or did not end within ``max_commands``."""


@dataclass(frozen=True)
class Step:
    seat: str
    command: dict[str, Any]
    events: list[Event]
    before: GameState
    after: GameState


@dataclass
class Style:
    """How the random player plays; the defaults give varied, realistic games."""

    fire: bool = True  # False: every fire declaration is empty (hold fire)
    ping_rate: float = 0.35  # chance to ping when a ping is allowed
    resign_rate: float = 0.001  # per command, for a random seat
    core_action_rate: float = 0.3  # per command while a core is critical
    leave_rate: float = 0.02  # chance to leave the table when some orders would
    blind_rate: float = 0.08  # orders or shots sent unfiltered, refusals handled
    still: bool = False  # hidden choices: deploy at speed 0 and never move (orders all 0)
    public_only: bool = False  # no leaving, bounded speeds: hidden choices stay hidden
    max_speed: int | None = None  # keep own speeds (or |velocity|) at most this, if possible
    seek_rate: float = 0.5  # chance to steer towards the nearest enemy marker the seat knows
    launch_rate: float = 0.7  # chance to launch (some of) the ready launchers in a fire window
    standing_rate: float = 0.01  # per command: a random seat sets its standing orders
    bay_launch_rate: float = 0.6  # chance that a ready bay launches when step 2 is played by orders
    land_rate: float = 0.25  # chance that a group that may land is ordered to


def setup_of(scenario_or_setup: GameSetup | str | tuple[str, str], movement: str) -> GameSetup:
    if isinstance(scenario_or_setup, GameSetup):
        return scenario_or_setup
    if isinstance(scenario_or_setup, tuple):
        return GameSetup.from_scenario(scenario_or_setup[0], scenario_or_setup[1])
    return GameSetup.from_scenario(scenario_or_setup, movement)


def seeded_dice(rng: random.Random, game_id: str) -> SeededDice:
    return SeededDice(bytes(rng.getrandbits(8) for _ in range(32)), game_id)


def play(
    rng: random.Random,
    scenario_or_setup: GameSetup | str | tuple[str, str],
    dice: DiceSource | None = None,
    max_commands: int = 5000,
    *,
    movement: str = "cinematic",
    hidden_rng: random.Random | None = None,
    style: Style | None = None,
    game_id: str | None = None,
) -> Iterator[Step]:
    """Play one game, yielding each accepted command; the first step's ``before`` is the start."""
    setup = setup_of(scenario_or_setup, movement)
    gid = game_id or f"rand-{rng.getrandbits(32):08x}"
    dice = dice if dice is not None else seeded_dice(rng, gid)
    player = RandomPlayer(rng, hidden_rng or rng, style or Style())
    state = start_state(game_started(gid, setup))
    for _ in range(max_commands):
        if state.status == "finished":
            return
        seat, command, decision = player.command(state, dice)
        events = list(decision.events)
        after = state
        for event in events:
            after = evolve(after, event)
        yield Step(seat, command, events, state, after)
        state = after
    if state.status != "finished":
        raise LivenessError(f"the game did not end within {max_commands} commands")


def random_game(
    rng: random.Random,
    scenario_or_setup: GameSetup | str | tuple[str, str],
    dice: DiceSource | None = None,
    max_commands: int = 5000,
    *,
    movement: str = "cinematic",
    hidden_rng: random.Random | None = None,
    style: Style | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> tuple[GameState, list[Event]]:
    """A whole random game: (final state, every event of the log, ``game_started`` first)."""
    setup = setup_of(scenario_or_setup, movement)
    gid = f"rand-{rng.getrandbits(32):08x}"
    first = game_started(gid, setup)
    events = [first]
    state = start_state(first)
    for step in play(
        rng,
        setup,
        dice,
        max_commands,
        hidden_rng=hidden_rng,
        style=style,
        game_id=gid,
    ):
        events.extend(step.events)
        state = step.after
        if on_step is not None:
            on_step(step)
    return state, events


# -- the player ----------------------------------------------------------------------------------
class RandomPlayer:
    def __init__(self, rng: random.Random, hidden: random.Random, style: Style) -> None:
        self.rng = rng
        self.hidden = hidden
        self.style = style

    def command(self, state: GameState, dice: DiceSource) -> tuple[str, dict[str, Any], Decision]:
        """Choose a seat and a command it may send, send it, return what was accepted."""
        rng = self.rng
        # things any seat may do at any time
        if rng.random() < self.style.resign_rate:
            seat = rng.choice(("A", "B"))
            cmd: dict[str, Any] = {"type": "resign"}
            return seat, cmd, decide(state, seat, cmd, dice)
        # (drawn only in games with launchers: other games play as they always did)
        if (_launches(state) or _bays(state)) and rng.random() < self.style.standing_rate:
            seat = rng.choice(("A", "B"))
            if "standing_orders" in fog.legal(state, seat)["commands"]:
                cmd = {"type": "standing_orders", "auto_defend": rng.random() < 0.5}
                return seat, cmd, decide(state, seat, cmd, dice)
        for seat in ("A", "B"):
            if (
                "core_action" in fog.legal(state, seat)["commands"]
                and rng.random() < self.style.core_action_rate
            ):
                v = view(state, seat)
                # in play or a hulk, while its crew is aboard (RULES §8)
                critical = [
                    s["id"]
                    for s in v["ships"]
                    if s["side"] == seat
                    and s["status"] in ("active", "out_of_play")
                    and {c["type"] for c in s["conditions"]} >= {"core_critical"}
                    and not any(c["type"] == "abandoned" for c in s["conditions"])
                ]
                cmd = {
                    "type": "core_action",
                    "ship": rng.choice(critical),
                    "action": rng.choice(("dump", "abandon")),
                }
                return seat, cmd, decide(state, seat, cmd, dice)
        awaited = fog.awaiting(state)  # the view's phase.awaiting, the same for every seat
        if not awaited:
            raise LivenessError(f"the game is active at seq {state.seq} but awaits nobody")
        seat = rng.choice(sorted(awaited))
        v = view(state, seat)
        legal = v["phase"]["legal"]
        commands = legal["commands"]
        if not PROGRESS_COMMANDS & set(commands):
            raise LivenessError(f"seat {seat} is awaited but may only send {commands}")
        if "deploy" in commands:
            cmd = self.deploy(v, seat)
            return seat, cmd, decide(state, seat, cmd, dice)
        if "fire" in commands:
            return self.fire(state, v, seat, dice)
        if "defend" in commands:
            return self.defend(state, v, seat, dice)
        if "fighters" in commands:
            return self.fighters(state, v, seat, dice)
        return self.activation(state, v, seat, dice)

    # -- deployment ------------------------------------------------------------------------------
    def deploy(self, v: Mapping[str, Any], seat: str) -> dict[str, Any]:
        h = self.hidden
        zone = Zone.from_dict(v["deployment_zones"][seat])
        limits = v["phase"]["legal"]["deploy"]
        cap = self.style.max_speed
        placements = []
        for ship in v["ships"]:
            if ship["side"] != seat:
                continue
            top = limits[ship["id"]]["max_speed"]
            if cap is not None:
                top = min(top, cap)
            x = _in_range(h, zone.x0, zone.x1)
            y = _in_range(h, zone.y0, zone.y1)
            heading = h.randrange(12)
            p: dict[str, Any] = {"ship": ship["id"], "position": {"x": x, "y": y}}
            p["heading"] = heading
            if v["movement"] == "vector":
                if self.style.still or h.random() < 0.2:
                    vel = Vec(0.0, 0.0)
                elif h.random() < 0.3:  # along a clock point, a whole length
                    vel = heading_vector(h.randrange(12)) * h.randint(0, top)
                else:
                    angle = h.uniform(0.0, 2 * math.pi)
                    length = h.uniform(0.0, top) * 0.999
                    vel = Vec(length * math.sin(angle), length * math.cos(angle))
                p["velocity"] = vel.to_dict()
            else:
                p["speed"] = 0 if self.style.still else h.randint(0, top)
            placements.append(p)
        return {"type": "deploy", "ships": placements}

    # -- fire ------------------------------------------------------------------------------------
    def fire(
        self, state: GameState, v: Mapping[str, Any], seat: str, dice: DiceSource
    ) -> tuple[str, dict[str, Any], Decision]:
        rng = self.rng
        legal = v["phase"]["legal"]
        window = legal["window"]
        everything = list(legal.get("fire_options", []))
        options = [o for o in everything if "target" in o]
        launchers = [o for o in everything if "launch" in o]
        shots: list[dict[str, Any]] = []
        if self.style.fire and options and rng.random() < 0.8:
            rng.shuffle(options)
            keep = rng.uniform(0.3, 1.0)
            if rng.random() < self.style.blind_rate:
                # any subset: may break one target per fire control; refusals are retried
                shots = [_shot(o) for o in options if rng.random() < keep]
            else:
                shots = _within_fire_control(v, seat, options, keep, rng)
        if self.style.fire and launchers and rng.random() < self.style.launch_rate:
            # launches first: the retries below drop shots from the end
            shots = [self.launch(v, o) for o in launchers if rng.random() < 0.6] + shots
        while True:
            cmd = {"type": "fire", "window": window, "shots": shots}
            try:
                return seat, cmd, decide(state, seat, cmd, dice)
            except RulesError:
                if not shots:
                    raise
                shots = shots[:-1]

    def launch(self, v: Mapping[str, Any], option: Mapping[str, Any]) -> dict[str, Any]:
        """A launch from a ``fire_options`` launch item: a load it lists (heavy-missile types
        and counts are secret: the hidden source picks), aimed at a suggested point or at a
        random point of the launcher's arc and reach (now and then beyond it: refused)."""
        h = self.hidden
        loads = option["loads"]
        pick = h.choice(loads)
        shot: dict[str, Any] = {"ship": option["ship"], "weapon": option["weapon"]}
        if len(loads) > 1 or h.random() < 0.5:
            shot["load"] = pick["load"]
        if pick["load"] == "needle":
            shot["system"] = h.choice(NEEDLE_SYSTEMS)
        own = next(s for s in v["ships"] if s["id"] == option["ship"])
        reach = float(pick["reach"])
        suggested = [a["aim"] for a in option["aim_at"]]
        if suggested and h.random() < 0.5:
            shot["aim"] = dict(h.choice(suggested))
        else:
            stretch = 1.3 if h.random() < self.style.blind_rate else 1.0
            shot["aim"] = _point_in_arc(h, v, own, option["arcs"], reach * stretch).to_dict()
        return shot

    def defend(
        self, state: GameState, v: Mapping[str, Any], seat: str, dice: DiceSource
    ) -> tuple[str, dict[str, Any], Decision]:
        """A defence allocation: the default, nothing, or a random subset of the legal
        pairings with each defending system once (retried with fewer until accepted)."""
        rng = self.rng
        offer = v["phase"]["legal"]["defend"]
        r = rng.random()
        allocations: list[dict[str, str]]
        if r < 0.3:
            allocations = [dict(a) for a in offer["default"]]
        elif r < 0.4:
            allocations = []
        else:
            pairings = list(offer["pairings"])
            rng.shuffle(pairings)
            used: set[tuple[str, str]] = set()
            allocations = []
            for p in pairings:
                # a defending system, or an intercepting group (RULES §9.8), once each
                key = (p.get("ship", ""), p.get("system", p.get("group", "")))
                if key in used or rng.random() < 0.3:
                    continue
                used.add(key)
                allocations.append(
                    {k: p[k] for k in ("ship", "system", "group", "against") if k in p}
                )
        while True:
            cmd = {"type": "defend", "window": offer["window"], "allocations": allocations}
            try:
                return seat, cmd, decide(state, seat, cmd, dice)
            except RulesError:
                if not allocations:
                    raise
                allocations = allocations[:-1]

    def markers(
        self, state: GameState, v: Mapping[str, Any], seat: str, ship_id: str, dice: DiceSource
    ) -> tuple[str, dict[str, Any], Decision]:
        """Step 2 by orders: each heavy missile or group now and then sent towards a known enemy
        position or to a random point within its reach (secret), a group now and then landed,
        the others left as they are; ready bays now and then launch (RULES §9.8). Refused
        orders (a blind launch, say) are dropped from the end until accepted."""
        h = self.hidden
        orders: list[dict[str, Any]] = []
        marks = _enemy_marks(v, seat)
        legal = v["phase"]["legal"]
        for item in legal["markers"]:
            if item.get("can_land") and h.random() < self.style.land_rate:
                orders.append({"marker": item["marker"], "land": True})
                continue
            if item["reach"] <= 0 or h.random() < 0.3:
                continue
            to = self._towards(v, marks, Vec.from_dict(item["from"]), float(item["reach"]))
            orders.append({"marker": item["marker"], "to": to.to_dict()})
        launches: list[dict[str, Any]] = []
        here = next(s for s in v["ships"] if s["id"] == ship_id).get("position")
        for bay in legal.get("launch", []):
            if h.random() >= self.style.bay_launch_rate:
                continue
            launch: dict[str, Any] = {"bay": bay["bay"]}
            if here is not None and h.random() < 0.8:
                reach = float(bay.get("reach", 0.0))
                launch["to"] = self._towards(v, marks, Vec.from_dict(here), reach).to_dict()
            launches.append(launch)
        while True:
            cmd: dict[str, Any] = {"type": "markers", "ship": ship_id, "orders": orders}
            if launches:
                cmd["launch"] = launches
            try:
                return seat, cmd, decide(state, seat, cmd, dice)
            except RulesError:
                if launches:
                    launches = launches[:-1]
                elif orders:
                    orders = orders[:-1]
                else:
                    raise

    def _towards(self, v: Mapping[str, Any], marks: list[Vec], here: Vec, reach: float) -> Vec:
        """A known enemy position within reach (now and then), else a random point within it."""
        h = self.hidden
        near = [m for m in marks if (m - here).length() <= reach]
        return h.choice(near) if near and h.random() < 0.6 else _point_within(h, v, here, reach)

    def fighters(
        self, state: GameState, v: Mapping[str, Any], seat: str, dice: DiceSource
    ) -> tuple[str, dict[str, Any], Decision]:
        """The fighters step: each group a random legal target (or none), a needle group a
        system type its target ship carries, a multi-role group a random mode (RULES §9.8).
        Refused choices fall back to no attack, one group at a time from the end."""
        rng = self.rng
        own = {m["id"]: m for m in v.get("markers", []) if m["side"] == seat}
        ships = {s["id"]: s for s in v["ships"]}
        choices: list[dict[str, Any]] = []
        for item in v["phase"]["legal"]["fighters"]:
            targets = [t if isinstance(t, str) else t["target"] for t in item["targets"]]
            choice: dict[str, Any] = {"marker": item["marker"], "attack": None}
            group = str(own.get(item["marker"], {}).get("type") or "")
            if group.endswith("interceptor"):
                # C5.0: interceptors fight groups only (the engine still offers ships:
                # tests/rules/test_fighter_findings.py)
                targets = [t for t in targets if t not in ships]
            if targets and rng.random() < 0.85:
                target = rng.choice(targets)
                choice["attack"] = target
                if group.endswith("needle") and target in ships:
                    kinds = sorted({x["type"] for x in ships[target]["design"]["systems"]})
                    if kinds:
                        choice["system"] = rng.choice(kinds)
                if group.endswith("multi"):
                    choice["mode"] = rng.choice(("anti_ship", "pd"))
            choices.append(choice)
        for fallback in range(len(choices), -1, -1):
            cmd = {"type": "fighters", "choices": choices}
            try:
                return seat, cmd, decide(state, seat, cmd, dice)
            except RulesError:
                if fallback == 0:
                    raise
                choices[fallback - 1] = {"marker": choices[fallback - 1]["marker"], "attack": None}
        raise AssertionError("unreachable")

    # -- activations -----------------------------------------------------------------------------
    def activation(
        self, state: GameState, v: Mapping[str, Any], seat: str, dice: DiceSource
    ) -> tuple[str, dict[str, Any], Decision]:
        rng = self.rng
        phase = v["phase"]
        legal = phase["legal"]
        commands = legal["commands"]
        ships = {s["id"]: s for s in v["ships"]}
        cmd: dict[str, Any]
        if phase["step"] == "activate":
            if not legal.get("activatable"):
                raise LivenessError(f"side {seat} must activate a ship but has none to name")
            ship_id = rng.choice(legal["activatable"])
            if _out_of_control(ships[ship_id]):
                cmd = {"type": "activate", "ship": ship_id}
                return seat, cmd, decide(state, seat, cmd, dice)
            r = rng.random()
            if r < 0.2:
                cmd = {"type": "activate", "ship": ship_id}
            elif r < 0.2 + 0.8 * self.style.ping_rate:
                cmd = {"type": "ping", "ship": ship_id}
            else:
                return self.move(state, v, seat, ship_id, dice)
            return seat, cmd, decide(state, seat, cmd, dice)
        ship_id = phase["ship"]
        if "set_mode" in commands and self.hidden.random() < 0.2:
            # a secret choice: a multi-fusion launcher switches its mode
            weapon_id = self.hidden.choice(sorted(legal["set_mode"]))
            choice = legal["set_mode"][weapon_id]
            other = [m for m in choice["modes"] if m != choice["mode"]]
            cmd = {"type": "set_mode", "ship": ship_id, "weapon": weapon_id, "mode": other[0]}
            return seat, cmd, decide(state, seat, cmd, dice)
        if "ping" in commands and rng.random() < self.style.ping_rate:
            cmd = {"type": "ping", "ship": ship_id}
            return seat, cmd, decide(state, seat, cmd, dice)
        if "markers" in commands and rng.random() < 0.7:
            return self.markers(state, v, seat, ship_id, dice)
        if "move" in commands:
            return self.move(state, v, seat, ship_id, dice)
        cmd = {"type": "end_activation", "ship": ship_id}
        return seat, cmd, decide(state, seat, cmd, dice)

    def move(
        self, state: GameState, v: Mapping[str, Any], seat: str, ship_id: str, dice: DiceSource
    ) -> tuple[str, dict[str, Any], Decision]:
        h = self.hidden
        ship = next(s for s in v["ships"] if s["id"] == ship_id)
        on_table, off_table = candidate_orders(v, ship, self.style.max_speed)
        orders: dict[str, Any]
        if self.style.still:
            orders = _zero_orders(v["movement"])
        elif self.style.public_only:
            if not on_table:
                raise AssertionError(f"{ship_id} has no orders that keep it on the table")
            orders = h.choice(on_table)[0]
        else:
            inner = [c for c in on_table if _inside(v["table"], c[1], EDGE_MARGIN)]
            r = h.random()
            if off_table and (not on_table or r < self.style.leave_rate):
                orders = {**h.choice(off_table)[0], "leave": True}
            elif r < self.style.leave_rate + self.style.blind_rate:
                # any orders within the limits: a move ending off the table is refused
                orders = h.choice(on_table + off_table)[0]
            else:
                pool = inner or on_table
                if h.random() < self.style.seek_rate:
                    pool = _towards_enemy(v, ship, pool) or pool
                orders = h.choice(pool)[0]
        cmd: dict[str, Any] = {"type": "move", "ship": ship_id, "orders": orders}
        try:
            return seat, cmd, decide(state, seat, cmd, dice)
        except IllegalOrders:
            if orders.get("leave") or not off_table or not any(o == orders for o, _ in off_table):
                raise
        # refused as expected (ends off the table): stay on it, or leave if it cannot
        if on_table:
            cmd = {"type": "move", "ship": ship_id, "orders": h.choice(on_table)[0]}
        else:
            cmd = {"type": "move", "ship": ship_id, "orders": {**orders, "leave": True}}
        return seat, cmd, decide(state, seat, cmd, dice)


# -- helpers -------------------------------------------------------------------------------------
Candidate = tuple[dict[str, Any], Vec]


def candidate_orders(
    v: Mapping[str, Any], ship: Mapping[str, Any], max_speed: int | None = None
) -> tuple[list[Candidate], list[Candidate]]:
    """Every order within the ship's limits, split by whether the move ends on the table.

    Computed from the owner's view: the ship's own position, heading, speed or velocity and the
    order limits of ``phase.legal``. With ``max_speed``, orders leaving the ship faster than that
    are dropped unless nothing else stays on the table.
    """
    limits = v["phase"]["legal"].get("order_limits")
    if limits is None:  # moving straight from naming no ship yet: limits from its thrust
        rule = vector_limits if v["movement"] == "vector" else cinematic_limits
        limits = rule(ship["thrust"]).to_dict()
    table = Table.from_dict(v["table"])
    pos = Vec.from_dict(ship["position"])
    heading = ship["heading"]
    thrust = limits["thrust"]
    on: list[tuple[Candidate, float]] = []
    off: list[Candidate] = []
    if v["movement"] == "vector":
        vel = Vec.from_dict(ship["velocity"])
        for r in range(-limits["max_rotate"], limits["max_rotate"] + 1):
            for n in range(thrust + 1):
                res = move_vector(pos, heading, vel, VectorOrders(r, n))
                assert res.velocity is not None
                o = {"rotate": r, "thrust": n}
                if table.contains(res.position):
                    on.append(((o, res.position), res.velocity.length()))
                else:
                    off.append((o, res.position))
    else:
        speed = ship["velocity"]
        mt = limits["max_turn"]
        for s in range(-limits["max_speed_change"], limits["max_speed_change"] + 1):
            for t in range(-mt, mt + 1):
                if abs(s) + abs(t) > thrust or speed + s < 0:
                    continue
                res = move_cinematic(pos, heading, speed, CinematicOrders(s, t))
                o = {"speed_change": s, "turn": t}
                if table.contains(res.position):
                    on.append(((o, res.position), float(speed + s)))
                else:
                    off.append((o, res.position))
    if max_speed is not None:
        slow = [c for c, fast in on if fast <= max_speed + 1e-9]
        if slow:
            return slow, off
    return [c for c, _ in on], off


# a needle missile's target system types (the types random designs carry, and one they may not)
NEEDLE_SYSTEMS = ("fire_control", "pds", "screen", "beam", "magazine", "salvo_launcher", "ecm")


def _launches(state: GameState) -> bool:
    """Whether any ship of the game has a launcher (public hardware)."""
    return any(s.type in LAUNCHER_TYPES for ship in state.ships for s in ship.systems)


def _bays(state: GameState) -> bool:
    """Whether any ship of the game has a fighter or drone bay (public hardware)."""
    return any(s.type in BAY_TYPES for ship in state.ships for s in ship.systems)


def _enemy_marks(v: Mapping[str, Any], seat: str) -> list[Vec]:
    """Where the seat last knew each enemy ship in play to be."""
    return [
        Vec(s["last_known"]["x"], s["last_known"]["y"])
        for s in v["ships"]
        if s["side"] != seat and s["last_known"] is not None and s["status"] == "active"
    ]


def _point_within(rng: random.Random, v: Mapping[str, Any], here: Vec, reach: float) -> Vec:
    """A random point on the table within ``reach`` of ``here`` (``here`` if none is drawn)."""
    table = Table.from_dict(v["table"])
    for _ in range(30):
        angle = rng.uniform(0.0, 2 * math.pi)
        length = reach * math.sqrt(rng.random())
        p = Vec(here.x + length * math.sin(angle), here.y + length * math.cos(angle))
        if table.contains(p):
            return p
    return here


def _point_in_arc(
    rng: random.Random,
    v: Mapping[str, Any],
    ship: Mapping[str, Any],
    arcs: Sequence[str],
    reach: float,
) -> Vec:
    """A random point on the table within ``reach`` of the ship and in one of its arcs (from the
    owner's view: its true position and heading); any point within reach if none is drawn."""
    here = Vec.from_dict(ship["position"])
    for _ in range(40):
        p = _point_within(rng, v, here, reach)
        if p != here and target_in_arcs(here, ship["heading"], p, tuple(arcs)):
            return p
    return _point_within(rng, v, here, reach)


def _towards_enemy(
    v: Mapping[str, Any], ship: Mapping[str, Any], on_table: list[Candidate]
) -> list[Candidate]:
    """The few orders ending nearest the closest enemy marker (live or stale) the seat knows."""
    marks = [
        Vec(s["last_known"]["x"], s["last_known"]["y"])
        for s in v["ships"]
        if s["side"] != ship["side"] and s["last_known"] is not None and s["status"] == "active"
    ]
    if not marks or not on_table:
        return []
    here = Vec.from_dict(ship["position"])
    goal = min(marks, key=lambda m: (m - here).length())
    ranked = sorted(on_table, key=lambda c: (c[1] - goal).length())
    return ranked[:3]


def _zero_orders(movement: str) -> dict[str, Any]:
    return {"rotate": 0, "thrust": 0} if movement == "vector" else {"speed_change": 0, "turn": 0}


def _inside(table: Mapping[str, Any], p: Vec, margin: float) -> bool:
    width, height = float(table["width"]), float(table["height"])
    return margin <= p.x <= width - margin and margin <= p.y <= height - margin


def _in_range(rng: random.Random, lo: float, hi: float) -> float:
    """A random coordinate of [lo, hi], now and then exactly on an edge (edges are in the zone)."""
    r = rng.random()
    if r < 0.03:
        return float(lo)
    if r < 0.06:
        return float(hi)
    return rng.uniform(lo, hi)


def _out_of_control(ship: Mapping[str, Any]) -> bool:
    return any(c["type"] == "out_of_control" for c in ship["conditions"])


def _shot(option: Mapping[str, Any]) -> dict[str, str]:
    shot = {"ship": option["ship"], "weapon": option["weapon"], "target": option["target"]}
    systems = option.get("systems")
    if systems:  # a needle beam names a system: the one its option lists first after the drive
        shot["system"] = sorted(systems, key=lambda s: (s == "drive", s))[
            len(option["weapon"]) % len(systems)
        ]
    return shot


# -- random designs from the systems table -----------------------------------------------------
def random_ordnance(rng: random.Random) -> list[SystemSpec]:
    """One to four random launchers of the systems table (``LAUNCHER_TYPES``), each in one arc:
    salvo racks with either salvo load, heavy-missile racks with a random missile type, AMT
    launchers, and salvo and heavy-missile launchers fed from one magazine holding random
    loads they can fire (``loads_of``); now and then point defence (PDS, ADFC)."""
    out: list[SystemSpec] = []
    fed: list[SystemSpec] = []
    kinds = sorted(LAUNCHER_TYPES)
    for i in range(rng.randint(1, 4)):
        kind = rng.choice(kinds)
        arcs = (rng.choice(ARCS),)
        sid = f"{kind}-{i + 1}"
        if kind == "salvo_rack":
            out.append(SystemSpec(sid, kind, arcs=arcs, load=rng.choice(("salvo", "er_salvo"))))
        elif kind == "heavy_missile_rack":
            out.append(SystemSpec(sid, kind, arcs=arcs, load=rng.choice(HEAVY_TYPES)))
        elif kind == "amt_launcher":
            out.append(SystemSpec(sid, kind, arcs=arcs))
        else:
            fed.append(SystemSpec(sid, kind, arcs=arcs, magazine="mag-1"))
    if fed:
        fireable = sorted({load for spec in fed for load in loads_of(spec)})
        # salvo launchers fire AF salvos only in defence windows: keep some launchable loads
        chosen = rng.sample(fireable, rng.randint(1, min(3, len(fireable))))
        if set(chosen) == {"af_salvo"}:
            chosen.append(rng.choice([x for x in fireable if x != "af_salvo"]))
        loads = tuple((load, rng.randint(1, 3)) for load in chosen)
        assert all(load in SALVO_LOADS or load in HEAVY_TYPES for load, _ in loads)
        out += [*fed, SystemSpec("mag-1", "magazine", loads=loads)]
    if rng.random() < 0.4:
        out.append(SystemSpec("pds-1", "pds"))
        if rng.random() < 0.4:
            out.append(SystemSpec("pds-2", "pds"))
    if rng.random() < 0.25:
        out.append(SystemSpec("adfc-1", "adfc"))
    return out


def random_bays(rng: random.Random) -> list[SystemSpec]:
    """One or two bays of random kinds, each holding a random group type of the C5.0 tables
    (stealthy variants included; never boarding pods), now and then a PDS beside them."""
    out: list[SystemSpec] = []
    fighters = sorted(n for n, g in FIGHTER_GROUPS.items() if not g.boarding)
    for i in range(rng.randint(1, 2)):
        if rng.random() < 0.65:
            out.append(SystemSpec(f"bay-{i + 1}", "fighter_bay", load=rng.choice(fighters)))
        else:
            out.append(
                SystemSpec(f"bay-{i + 1}", "drone_bay", load=rng.choice(sorted(DRONE_GROUPS)))
            )
    if rng.random() < 0.3:
        out.append(SystemSpec("pds-9", "pds"))
    return out


def random_design(
    rng: random.Random,
    name: str,
    weapons: Sequence[str] | None = None,
    *,
    ordnance: bool = False,
    fighters: bool = False,
) -> Design:
    """A legal design (``Design.problems()`` empty) with random weapons of the systems table
    (or the given weapon types), random defences and electronics, stealth and hull rows; with
    ``ordnance``, random launchers and point defence too (``random_ordnance``); with
    ``fighters``, one or two fighter or drone bays (``random_bays``)."""
    systems: list[SystemSpec] = [
        SystemSpec(f"fc-{i + 1}", "fire_control") for i in range(rng.randint(1, 2))
    ]
    if ordnance:
        systems += random_ordnance(rng)
    if fighters:
        systems += random_bays(rng)
    kinds = list(weapons) if weapons is not None else rng.sample(sorted(WEAPON_TYPES), 3)
    for i, kind in enumerate(kinds):
        row = SYSTEMS[kind]
        cls = rng.choice(row.classes) if row.classes else None
        start = rng.randrange(6)
        if row.all_arcs and cls == 1:
            arcs: tuple[str, ...] = ()
        else:
            n = rng.choice([k for k in (1, 2, 3, 6) if k <= row.max_arcs] or [1])
            arcs = tuple(ARCS[(start + k) % 6] for k in range(n))
        weak: tuple[str, ...] = ()
        if row.weak_arcs and cls is not None and cls > 1 and len(arcs) < 6 and rng.random() < 0.5:
            weak = (ARCS[(start + len(arcs)) % 6],)
        mode = rng.choice(row.modes) if row.modes else None
        systems.append(
            SystemSpec(f"{kind}-{i + 1}", kind, cls=cls, arcs=arcs, weak_arcs=weak, mode=mode)
        )
    if rng.random() < 0.4:
        systems.append(SystemSpec("screen-1", "screen", level=rng.choice((1, 2))))
    for kind in ("ecm", "ftl", "command_bridge", "pds"):
        if rng.random() < 0.3:
            systems.append(SystemSpec(f"{kind}-1", kind))
    if rng.random() < 0.3:
        systems.append(
            SystemSpec("sensors-1", "sensors", grade=rng.choice(("enhanced", "superior")))
        )
    rows = rng.choice((3, 4, 5, 6))
    stealth = rng.choice((0, 0, 1, 2))
    armour = rng.randint(0, 4)
    thrust = rng.randint(2, 6)
    # heavy weapons with every share-of-TMF system may need more than the largest hull: then
    # the same weapons without the optional systems (a few seeds in a thousand)
    weapons_only = [s for s in systems if s.type in _KEPT or s.type in WEAPON_TYPES]
    for fitted in (systems, weapons_only):
        for mass in range(20, 301):
            hull = max((mass + 9) // 10, mass * 3 // 10)
            design = Design(
                id=name,
                name=name.title(),
                hull_class="random",
                mass=mass,
                thrust=thrust,
                hull=hull,
                hull_rows=rows,
                armour=armour,
                systems=tuple(fitted),
                stealth=stealth,
            )
            if not design.problems():
                return design
    raise AssertionError(f"no mass fits {systems}: {design.problems()}")


def random_setup(
    rng: random.Random,
    movement: str,
    weapons: Sequence[str] | None = None,
    *,
    ordnance: bool = False,
    fighters: bool = False,
) -> GameSetup:
    """Each side one or two random designs; with ``weapons``, the first ship carries them; with
    ``ordnance``, every ship carries random launchers (and often point defence); with
    ``fighters``, every ship one or two bays."""
    ships = {}
    for side in ("A", "B"):
        entries = []
        for k in range(rng.randint(1, 2)):
            which = weapons if (weapons is not None and k == 0) else None
            design = random_design(
                rng, f"{side.lower()}-design-{k + 1}", which, ordnance=ordnance, fighters=fighters
            )
            entries.append(ShipEntry(f"{side}{k + 1}", design))
        ships[side] = entries
    return GameSetup(ships=ships, movement=movement, turn_limit=8)


def _within_fire_control(
    v: Mapping[str, Any],
    seat: str,
    options: list[dict[str, Any]],
    keep: float,
    rng: random.Random,
) -> list[dict[str, str]]:
    """A random subset of the options: each weapon once, one target per working fire control."""
    own = {s["id"]: s for s in v["ships"] if s["side"] == seat}
    engaged = {sid: set(s["locks"]) for sid, s in own.items()}
    used: set[tuple[str, str]] = set()
    shots = []
    for o in options:
        if rng.random() >= keep or (o["ship"], o["weapon"]) in used:
            continue
        targets = engaged[o["ship"]]
        if o["target"] not in targets and len(targets) >= own[o["ship"]]["fire_controls"]:
            continue
        targets.add(o["target"])
        used.add((o["ship"], o["weapon"]))
        shots.append(_shot(o))
    return shots
