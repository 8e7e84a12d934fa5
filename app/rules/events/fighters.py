"""The events of fighter and drone groups (issue 13): sighting, the fighters step, the choices,
and contact lost. Launches, moves and landings are secret items of ``ordnance_acted``: a
separate launch event would tell the other side that a bay launched.

Each declares its secrecy once. What the other side receives holds only public facts: a group
it can see now (its kind, strength, position; its type once shown), that the fighters step
opened and for which ship, and an engagement's end.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field

from app.rules.events.body import EventBody, Part, opt
from app.rules.events.defence import WindowAttack
from app.rules.events.secrecy import PUBLIC, OwnerShip
from app.rules.events.turn import Point


@dataclass(frozen=True)
class SightedGroup(Part):
    """An enemy group seen now: only what one sees of it (never its mother, bay or CEF)."""

    _: KW_ONLY
    marker: str
    marker_kind: str = field(metadata={"key": "kind"})  # fighters | drones
    side: str
    strength: int
    position: Point
    group: str | None = opt()  # its type, once shown (F11)
    engaged_with: str | None = opt()


@dataclass(frozen=True)
class FightersSighted(EventBody):
    """Enemy groups became live: seen by a group's line of sight (``cause`` sight, decision F5)
    or detected by a ping (``cause`` ping, ``by`` the pinger)."""

    kind = "fighters_sighted"
    secrecy = PUBLIC

    _: KW_ONLY
    cause: str  # sight | ping
    side: str  # the side that saw them
    by: str | None = opt()  # the pinging ship
    groups: tuple[SightedGroup, ...] = ()


@dataclass(frozen=True)
class FightersStepOpened(EventBody):
    """The fighters step opened for the activating ship's side: entered from public facts only
    (the reveals just emitted and the engagements), so it tells the other side nothing more."""

    kind = "fighters_step"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str  # the activating (mother) ship
    # the step 2's ordnance attacks, as the defence window will show them: they wait for the
    # groups' choices and go into the one window with them (public at once, as they would be)
    held: tuple[WindowAttack, ...] = ()


@dataclass(frozen=True)
class FighterChosen(Part):
    _: KW_ONLY
    marker: str
    attack: str | None = opt(written=True)  # None: no attack (an engaged group breaks off)
    system: str | None = opt()
    mode: str | None = opt()


@dataclass(frozen=True)
class FightersChosen(EventBody):
    """The side's choices in the fighters step; the other side learns only the ship (the
    attacks themselves are public once the defence window announces them)."""

    kind = "fighters_chosen"
    secrecy = OwnerShip(owner="ship", stub=(("ship", None),))

    _: KW_ONLY
    ship: str
    choices: tuple[FighterChosen, ...] = ()


@dataclass(frozen=True)
class ContactLost(EventBody):
    """An engagement ended (decision F7): the ship outran the group (``speed``: the group stays
    at ``at``, the ship's start; ``left``: it left the table), the group broke off
    (``broke_off``), has no CEF or no anti-ship attack left (``exhausted``: a torpedo group
    fired its sortie's torpedo) or its ship is off the table (``gone``)."""

    kind = "contact_lost"
    secrecy = PUBLIC

    _: KW_ONLY
    marker: str
    ship: str  # the ship it was engaged with
    reason: str  # speed | left | broke_off | exhausted | gone
    at: Point | None = opt()


# -- fighter combat (H2): what is rolled when groups fight (RULES §9.5) ---------------------------
@dataclass(frozen=True)
class CombatDie(Part):
    _: KW_ONLY
    natural: int
    modified: int
    further: bool  # a natural 6's further die


@dataclass(frozen=True)
class FightersAttack(EventBody):
    """A group's attack run on a ship (public, RULES §9.4–9.5): the fighters the defences left
    roll (C5.0), armour first, further dice to the hull; never the group's mother ship."""

    kind = "fighters_attack"
    secrecy = PUBLIC

    _: KW_ONLY
    marker: str
    side: str
    marker_kind: str = field(metadata={"key": "kind"})  # fighters | drones
    target: str
    group: str  # its type, shown now (F11)
    killed: int  # by the defences before it rolled
    run: str  # beam | torpedo | needle
    fighters: int  # that rolled (0: none left, nothing rolled)
    notation: str
    screen: int
    dice: tuple[CombatDie, ...]
    rolled: tuple[int, ...]
    armour_damage: int
    hull_damage: int
    damage_rolled: tuple[int, ...] | None = opt()  # a torpedo hit's damage dice
    sixes: int | None = opt()  # a needle run's 6s
    system: str | None = opt()  # a needle run's named system type
    needle_system: str | None = opt()  # the system its 6s go to (None: the hull only)
    destroyed: bool | None = opt()  # the defences killed every fighter
    exhausted: bool | None = opt()  # a drone group out of endurance: gone after its attack
    rolls: tuple[int, ...] = ()

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class GroupDice(Part):
    """One group's dice in a dogfight: its PD notation per fighter at the other group."""

    _: KW_ONLY
    notation: str
    fighters: int
    drm: int
    dice: tuple[CombatDie, ...]
    rolled: tuple[int, ...]
    hits: int
    kills: int


@dataclass(frozen=True)
class Dogfight(EventBody):
    """A group's attack on an enemy group (public): both roll at once, each hit kills one."""

    kind = "dogfight"
    secrecy = PUBLIC

    _: KW_ONLY
    marker: str
    side: str
    marker_kind: str = field(metadata={"key": "kind"})
    group: str
    killed: int  # by the defences (interceptors) before it rolled
    fighters: int
    target: str  # the enemy group
    target_kind: str
    target_group: str
    target_fighters: int  # that rolled back (0: none, or no endurance left)
    attacker: GroupDice
    defender: GroupDice
    gone: tuple[str, ...] = ()  # groups destroyed or out of endurance after it
    rolls: tuple[int, ...] = ()

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class HitGroup(Part):
    _: KW_ONLY
    marker: str
    killed: int
    strength: int  # fighters left (0: the group is gone)


@dataclass(frozen=True)
class GroupsHit(EventBody):
    """What a volley's shots at live groups killed (F12, C1.iv): after its dice, as ``damage``
    is for ships."""

    kind = "groups_hit"
    secrecy = PUBLIC

    _: KW_ONLY
    window: int
    groups: tuple[HitGroup, ...]
