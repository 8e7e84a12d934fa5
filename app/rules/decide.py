"""``decide(state, seat, command, dice, seed) -> Decision``: the game's master.

The pipeline: over? → parse → a player's seat? → your turn? → allowed now? → check → events.
Each event is folded into a working state as it is emitted, so later checks see its effect;
after the command's own events the game advances by itself (volleys, end of activation, end of
turn, the finish) until it waits for somebody again. The decision carries the events and the
state they lead to, so that nobody folds them a second time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.rules import activation, volley
from app.rules.advance import advance
from app.rules.builder import Builder
from app.rules.commands import (
    COMMANDS,
    Activate,
    Command,
    CoreAction,
    Deploy,
    EndActivation,
    Fire,
    Markers,
    Move,
    Ping,
    Placement,
    Resign,
    SetMode,
    parse_command,
)
from app.rules.dice import DiceSource
from app.rules.errors import (
    GameFinished,
    IllegalOrders,
    InvalidCommand,
    NoCriticalCore,
    NotYourShip,
    OutOfZone,
    StaleState,
    WrongStep,
)
from app.rules.events import Event
from app.rules.fighters import step as fighters_step
from app.rules.fighters.commands import Fighters
from app.rules.gates import own_ship
from app.rules.ordnance import defence_commands, markers
from app.rules.state import PLAYER_SEATS, GameState, GameStatus, other_side
from app.rules.winning import finish


@dataclass(frozen=True)
class Decision:
    """What a command caused: its events, and the state they lead to."""

    events: tuple[Event, ...]
    state: GameState


def decide(
    state: GameState,
    seat: str,
    command: Command | Mapping[str, Any],
    dice: DiceSource,
    seed: str | None = None,
) -> Decision:
    """The events a command causes, or a ``RulesError`` saying why it is refused.

    ``seed``: the game's dice seed, which the ``game_finished`` event publishes (RULES §12)."""
    if state.status == GameStatus.FINISHED:
        raise GameFinished("the game is over")
    if seat not in PLAYER_SEATS:
        raise NotYourShip("only the players' seats A and B send game commands")
    # a dict first: the JSON form every player sends (``Command`` is an ABC: its isinstance costs)
    if type(command) is dict or not isinstance(command, Command):
        cmd = parse_command(command, state.movement)
    else:
        cmd = command
    b = Builder(state, dice, seed)
    HANDLERS[type(cmd)](b, seat, cmd)
    advance(b)
    # every roll drawn is listed by some event, so a replay's dice counter matches
    assert b.state.next_roll == b.roller.next, "a roll was drawn but not recorded"
    return Decision(tuple(b.events), b.state)


def check_at_seq(state: GameState, at_seq: int | None) -> None:
    if at_seq is not None and at_seq != state.seq:
        raise StaleState(f"the game has moved on to seq {state.seq} since seq {at_seq}; re-fetch")


# -- the commands outside an activation ----------------------------------------------------------
def _deploy(b: Builder, seat: str, cmd: Deploy) -> None:
    state = b.state
    if state.phase.step not in Deploy.steps:
        raise WrongStep("deployment is over")
    if seat in state.deployed:
        raise WrongStep(f"side {seat} has already deployed")
    seen: set[str] = set()
    placed = []
    for p in cmd.ships:
        ship = own_ship(state, seat, p.ship)
        if ship.id in seen:
            raise InvalidCommand(f"{ship.name} is placed twice")
        seen.add(ship.id)
        _check_placement(state, seat, ship.name, state.design_of(ship).thrust, p)
        placed.append(p.to_dict())
    missing = [s.name for s in state.ships_of(seat) if s.id not in seen]
    if missing:
        raise InvalidCommand(f"deploy every ship of your side: missing {', '.join(missing)}")
    b.emit("deployed", {"side": seat, "ships": placed})


def _check_placement(state: GameState, seat: str, name: str, thrust: int, p: Placement) -> None:
    zone = state.zones[seat]
    if not zone.contains(p.position):
        raise OutOfZone(
            f"{name} at ({p.position.x:g}, {p.position.y:g}) is outside your deployment "
            f"zone x {zone.x0:g}–{zone.x1:g}, y {zone.y0:g}–{zone.y1:g}"
        )
    if not 0 <= p.heading <= 11:
        raise InvalidCommand(f"{name}: heading must be a clock point 0..11, not {p.heading}")
    limit = 2 * thrust
    if p.velocity is not None:
        if p.velocity.length() > limit + 1e-9:
            raise IllegalOrders(
                f"{name}: starting velocity {p.velocity.length():.2f} exceeds twice "
                f"its thrust ({limit})"
            )
    elif p.speed is None or not 0 <= p.speed <= limit:
        raise IllegalOrders(
            f"{name}: starting speed {p.speed} must be 0..{limit} (twice its thrust)"
        )


def _core_action(b: Builder, seat: str, cmd: CoreAction) -> None:
    state = b.state
    if state.phase.step not in CoreAction.steps:
        raise WrongStep("no power core is critical during deployment")
    ship = own_ship(state, seat, cmd.ship)
    # any time, in play or a hulk, as long as someone is aboard to choose (RULES §8)
    if ship.on_table and ship.abandoned:
        raise NoCriticalCore(f"{ship.name}'s crew has abandoned ship: nobody is aboard to choose")
    if not ship.crew_aboard or not ship.core_critical:
        raise NoCriticalCore(f"{ship.name}'s power core is not critical")
    b.emit("core_action", {"ship": ship.id, "action": cmd.action})


def _resign(b: Builder, seat: str, cmd: Resign) -> None:
    b.finish_game(finish(b.state, other_side(seat), "resigned", resigned=seat))


# one handler per command class; ``COMMANDS`` and this table name the same classes
HANDLERS: Mapping[type[Command], Callable[[Builder, str, Any], None]] = {
    Deploy: _deploy,
    Activate: activation.activate,
    Ping: activation.ping,
    Move: activation.move,
    EndActivation: activation.end_activation,
    Fire: volley.declare,
    Markers: markers.markers,
    Fighters: fighters_step.fighters,
    defence_commands.Defend: defence_commands.defend,
    defence_commands.StandingOrders: defence_commands.standing_orders,
    CoreAction: _core_action,
    SetMode: activation.set_mode,
    Resign: _resign,
}
assert set(HANDLERS) == set(COMMANDS.values()), "a command without a handler (or the reverse)"
