"""The gates a command passes before its checks: whose ship, whose turn, allowed now?

A command's allowed steps are its own declaration (``Command.steps``); a refusal names what the
game waits for instead.
"""

from __future__ import annotations

from app.rules.commands import Command
from app.rules.errors import (
    AlreadyActivated,
    InvalidCommand,
    NotYourShip,
    NotYourTurn,
    OutOfControl,
    ShipNotInPlay,
    UnknownShip,
    WrongStep,
)
from app.rules.state import (
    ACTIVATE,
    AFTER_MOVE,
    AFTER_PING,
    DEPLOY,
    FIRE,
    START,
    GameState,
    ShipState,
    Step,
)

# what each step of an activation waits for, in words
_DUE = {
    ACTIVATE: "name a ship with activate, ping or move",
    START: "ping or move the activating ship",
    AFTER_PING: "the activating ship must move now",
    AFTER_MOVE: "ping, or end the activation to go on overwatch",
    Step.FIGHTERS: "choose the attacks of your groups with the fighters command",
}


def own_ship(state: GameState, seat: str, ship_id: str) -> ShipState:
    try:
        ship = state.ship(ship_id)  # one search of the ships, not two
    except KeyError:
        raise UnknownShip(f"there is no ship {ship_id!r} in this game") from None
    if ship.side != seat:
        raise NotYourShip(f"{ship.name} belongs to side {ship.side}")
    return ship


def gate(state: GameState, seat: str, command: type[Command]) -> None:
    """Your turn? Allowed now (one of the command's steps)? For the commands of an activation."""
    phase = state.phase
    if phase.step == DEPLOY:
        raise WrongStep(f"the game is in deployment: {command.type} comes after both sides deploy")
    if phase.step == FIRE:
        if seat in phase.awaiting:
            raise WrongStep(f"fire window {phase.window} is open: send your fire declaration")
        raise NotYourTurn(f"fire window {phase.window} waits for side {', '.join(phase.awaiting)}")
    if phase.side != seat:
        raise NotYourTurn(f"it is side {phase.side}'s activation")
    if phase.step not in command.steps:
        ship = state.active_ship
        doing = f"{ship.name} is activating ({phase.step.replace('_', ' ')})" if ship else ""
        raise WrongStep(
            f"{command.type} is not allowed now: {doing or phase.step}; "
            + _DUE.get(phase.step, "wait")
        )


def check_activatable(state: GameState, ship: ShipState) -> None:
    if not ship.in_play:
        raise ShipNotInPlay(f"{ship.name} is {ship.status.replace('_', ' ')}")
    if ship.activated:
        raise AlreadyActivated(f"{ship.name} has already activated this turn")


def named(state: GameState, seat: str, ship_id: str) -> ShipState:
    """The activating ship, naming it first if none is named yet (ping and move do that)."""
    ship = own_ship(state, seat, ship_id)
    if state.phase.step == ACTIVATE:
        check_activatable(state, ship)
        if ship.out_of_control:
            raise OutOfControl(f"{ship.name} is out of control: name it with activate to drift it")
        return ship
    if state.phase.ship != ship.id:
        active = state.active_ship
        raise InvalidCommand(
            f"{active.name if active else 'another ship'} is activating, not {ship.name}"
        )
    if ship.out_of_control:
        raise OutOfControl(f"{ship.name} is out of control and can only drift")
    return ship
