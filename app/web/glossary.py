"""The glossary of ``/help`` as data: one entry per rules term.

The help page renders every entry with its anchor (``term-…``); ``/help/glossary.json`` gives
the game page's ``static/js/terms.js`` the same entries without their long text, so that the
words on the page link to the entry that explains them. Each entry's ``forms`` are regular
expressions (the subset JavaScript and Python read alike) for how the term is written on the
game page; ``exact_case`` keeps a form such as ``PINGED`` (the record sheet's mark) apart from
the ordinary verb.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Term:
    name: str
    slug: str  # the anchor is ``term-{slug}``
    short: str  # the hover text: one sentence
    long: str  # the glossary entry on /help
    forms: tuple[str, ...]
    exact_case: bool = False
    section: str = ""  # the /help section that tells more

    @property
    def anchor(self) -> str:
        return f"term-{self.slug}"


GLOSSARY: tuple[Term, ...] = (
    Term(
        "Activation",
        "activation",
        "One ship's go: ping, ordnance, move, ping, end. The sides take turns, one ship each.",
        "A ship's turn to act. Its owner names it, may ping before or after its move (once), "
        "gives its missiles and fighters their orders if it carries any, and sends its secret "
        "move. A ship that did not ping ends the activation on overwatch. Every ship in play "
        "activates once per game turn, the two sides alternating.",
        (r"activations?", r"activate[sd]?", r"activating"),
        section="turn",
    ),
    Term(
        "Arc",
        "arc",
        "One of six 60° slices around a ship; a weapon fires only through its own arcs.",
        "The ring around a ship is cut into six 60° fire arcs, read clockwise from dead ahead: "
        "F, FS, AS, A, AP, FP (a broadside design turns the ring by 30°: SF, S, SA, PA, P, PF). "
        "A weapon can only shoot at a target inside one of its arcs. A weak arc fires one class "
        "lower.",
        (r"weak arcs?", r"arcs?"),
        section="fire",
    ),
    Term(
        "Band",
        "band",
        "A range step of a weapon (often 12 mu wide); the band decides how many dice it rolls.",
        "A weapon's reach is cut into bands. A standard beam's bands are 12 mu wide: class 3 "
        "rolls 3 beam dice in band 1 (0–12 mu), 2 in band 2 (to 24 mu) and 1 in band 3 (to 36 "
        "mu). A target exactly on an edge counts as the nearer band. Stealth shrinks the bands of "
        "weapons aimed at the ship.",
        (r"bands?",),
        section="dice",
    ),
    Term(
        "Beam dice",
        "beam-dice",
        "A d6 read against the target's screens: 4 = 1 hit (unscreened), 5 = 1, 6 = 2 (1 vs "
        "screen 2) and a reroll.",
        "A beam die is read in the column of the target's screen level. 1–3 miss. 4 hits once "
        "against no screen only. 5 hits once whatever the screen. 6 hits twice against screen 0 "
        "or 1 and once against screen 2. With a * weapon every natural 6 also earns a reroll "
        "die, read as if there were no screen, whose hits go straight to the hull.",
        (r"beam dice", r"beam die"),
        section="dice",
    ),
    Term(
        "2BD* notation",
        "bd-notation",
        "How many beam dice a weapon rolls: 2BD* is two beam dice, and each 6 rerolls.",
        "Weapon dice are written nBD±m*: n beam dice (none written means one), ±m added to "
        "each die, and * when natural sixes reroll. 3BD* is three rerolling beam dice; 1BD+1* "
        "one die with +1. The record sheet's weapon table lists the dice of each band.",
        (r"\d*BD(?:[+-]\d+)?\*?",),
        exact_case=True,
        section="dice",
    ),
    Term(
        "CEF",
        "cef",
        "Combat endurance of a fighter or drone group: each attack or dogfight costs 1.",
        "Combat endurance factor: how many more attacks a fighter or drone group can make "
        "before it must go home. Each attack run, dogfight or interception costs the group 1. "
        "At 0 it can only fly and land; a fighter group that lands gets its full CEF back from "
        "the next turn. The enemy never sees a group's CEF.",
        (r"CEF",),
        exact_case=True,
        section="fighters",
    ),
    Term(
        "Core systems",
        "core-systems",
        "Power core, bridge and life support: they fail only in the harder threshold checks.",
        "Every ship has a power core, a bridge and life support without designing them. They "
        "roll once, as a group, in each threshold check and only fail on one more than the "
        "row's number. A hit picks one: a bridge hit puts the ship out of control for some "
        "activations (or for good on a 6), failing life support leads to abandoning ship, and a "
        "critical power core may explode at the start of each later turn (5+) unless repaired, "
        "dumped or abandoned.",
        (r"power core", r"core systems?", r"life support", r"command bridge", r"bridge"),
        section="core",
    ),
    Term(
        "Damage control",
        "damage-control",
        "At the end of each turn a ship's crew tries to repair its damaged systems.",
        "At the end of every turn each crewed ship sends its damage-control parties (one per 20 "
        "mass, fewer as the hull is lost) to its damaged systems, the power core and bridge "
        "first. One party repairs on a 6, two on 5+, three on 4+. Destroyed systems and lost "
        "boxes are never repaired.",
        (r"damage control",),
        section="core",
    ),
    Term(
        "Defence window",
        "defence-window",
        "A pause before missiles or fighters strike, in which the attacked side shoots them down.",
        "When markers or fighter groups attack, the game opens one defence window for all of "
        "that step's attacks. Each side with something that can defend allocates its point "
        "defence (or sends nothing); then the defences roll, and whatever survives strikes.",
        (r"defence windows?",),
        section="ordnance",
    ),
    Term(
        "Deployment zone",
        "deployment",
        "The strip where a side places its ships, in secret, before turn 1.",
        "Each side places all of its ships at once inside its own zone (by default an 8 mu strip "
        "along its home edge), each with a heading and a starting speed. The other side never "
        "learns where: every ship begins the game unseen.",
        (r"deployment zones?", r"deployment", r"deploy(?:ed|s)?"),
        section="deploy",
    ),
    Term(
        "Drift",
        "drift",
        "A move with no orders: the ship keeps its course and speed.",
        "A ship out of control, and every hulk at the end of each turn, drifts: it keeps its "
        "heading and speed (or its velocity with vector movement). A drift is as secret as any "
        "move and makes a live ship stale.",
        (r"drift(?:s|ed|ing)?",),
        section="core",
    ),
    Term(
        "Drone",
        "drone",
        "A group of six unmanned craft from a drone bay: like fighters, but they never land.",
        "Drones fly as groups of six like fighters, from a drone bay that launches once. They "
        "have 3 CEF fewer than the fighter of their type, everything fired at them gets +1 on "
        "each die, and once spent they are gone: they never come back to land.",
        (r"drones?", r"drone bays?"),
        section="fighters",
    ),
    Term(
        "ECM",
        "ecm",
        "Electronic counter-measures: dice the target rolls against a ping to stay hidden.",
        "A ship with ECM rolls one die against each enemy ping, two when it is within 12 mu of "
        "another friendly ship with working area ECM. It stays hidden unless the pinger's "
        "highest die beats its highest die. A ship with no ECM is always found. Only the "
        "target's owner sees its ECM dice.",
        (r"area ECM", r"ECM"),
        exact_case=True,
        section="ping",
    ),
    Term(
        "EMP",
        "emp",
        "A weapon or warhead whose hits knock out systems such as drives, screens and sensors.",
        "An EMP projector hits as a beam of its class, and each hit lets the target's "
        "vulnerable systems (drive, screens, fire controls, sensors, ECM…) roll a die: at or "
        "under the number of hits the system is damaged. At most 3 EMP hits per firing ship "
        "and target in a turn.",
        (r"EMP",),
        exact_case=True,
        section="fire",
    ),
    Term(
        "Engaged",
        "engaged",
        "A fighter group that attacked a ship sticks to it and keeps revealing it.",
        "A group that made an attack run and survived is engaged: it stays with the ship, is "
        "visible to both sides, and the ship is revealed after each of its moves. A move at "
        "speed 12 or more (18 against fast fighters) shakes the group off.",
        (r"engaged", r"engagements?"),
        section="fighters",
    ),
    Term(
        "Fighter group",
        "fighter-group",
        "Six small craft launched from a bay; they move in secret, see 6 mu, and attack.",
        "A carrier's bay holds one group of six fighters. It launches in step 2 of its mother's "
        "activation and from then on moves at each of her activations. A group sees 6 mu: "
        "enemies inside are revealed. It can make an attack run at a ship, dogfight another "
        "group, or intercept attackers near a friendly ship.",
        (r"fighter groups?", r"fighters?", r"fighter bays?", r"groups?"),
        section="fighters",
    ),
    Term(
        "Fire control",
        "fire-control",
        "Each working fire control lets a ship lock one target for the rest of the game turn.",
        "A ship needs a working fire control to shoot at all. Each one locks one target (or one "
        "aim point for a launch) for the game turn; later windows of the same turn may fire "
        "the ship's remaining weapons at a locked target.",
        (r"fire controls?",),
        section="fire",
    ),
    Term(
        "Fire window",
        "fire-window",
        "Opened by every ping: the pinger and ships on overwatch may shoot at revealed enemies.",
        "Each ping opens a fire window. Each side with a ship allowed to fire (the pinger, or a "
        "ship on overwatch, with a ready weapon) sends one secret declaration — possibly "
        "\u201chold fire\u201d. When both are in, every shot resolves at once as one volley.",
        (r"fire windows?",),
        section="fire",
    ),
    Term(
        "Heading",
        "heading",
        "The way a ship faces, as a clock point: 12 o'clock is north, each point 30°.",
        "Headings are the twelve points of a clock face: 0 (12 o'clock) is north and every point "
        "turns 30° clockwise, so 3 o'clock is east. Turns in orders are counted in these points; "
        "a negative turn goes to port.",
        (r"headings?", r"o'clock"),
        section="move",
    ),
    Term(
        "Hulk",
        "hulk",
        "A ship out of play still on the table: it drifts, and can still be shot or destroyed.",
        "A ship that is out of play but still on the table — crew gone, core dumped, or out of "
        "control for good — is a hulk. It drifts at the end of every turn, pings still find it, "
        "and destroying it turns the half points it already gave into full points.",
        (r"hulks?",),
        section="end",
    ),
    Term(
        "Hull and armour",
        "hull",
        "The boxes a ship loses to damage: armour first, then hull rows; the last box sinks it.",
        "Damage crosses off armour boxes first and then hull boxes (reroll hits, torpedoes and "
        "needles go straight to the hull). The hull boxes lie in rows; finishing a row makes a "
        "threshold check. The ship is destroyed when its last hull box goes.",
        (r"hull rows?", r"hull", r"armour"),
        section="damage",
    ),
    Term(
        "Live",
        "live",
        "Revealed now: both sides see where the ship is, until it next moves.",
        "A ship is live from the moment it is revealed — it pinged, a ping found it, it fired, "
        "or fighters saw it — until its next move. Only live ships can be fired at.",
        (r"live",),
        section="revealed",
    ),
    Term(
        "Movement: cinematic",
        "cinematic",
        "Speed and turns: change speed, turn up to half your thrust, fly half, turn, fly the rest.",
        "The default movement. Orders are a speed change and a turn; together they may not "
        "exceed the ship's thrust, and the turn may be at most half of it (any ship with thrust "
        "may turn 1). The ship turns half its turn, flies half its new speed, turns the rest and "
        "flies the remainder.",
        (r"cinematic",),
        section="move",
    ),
    Term(
        "Movement: vector",
        "vector",
        "Rotate and burn: the ship keeps its velocity; thrust adds to it along the new heading.",
        "The Fleet Book option. A ship has a velocity besides its heading. Each move it may "
        "rotate up to 6 points and burn up to its thrust: the burn adds that many mu along the "
        "new heading to its velocity, and the ship then moves by the velocity.",
        (r"vector",),
        section="move",
    ),
    Term(
        "mu",
        "mu",
        "Measurement unit: all distances on the table are in mu (the default table is 72 × 48).",
        "The table's unit of distance. Ranges are measured centre to centre in mu; a ship at "
        "speed 6 flies 6 mu.",
        (r"mu",),
        exact_case=True,
        section="table",
    ),
    Term(
        "Out of control",
        "out-of-control",
        "After a bridge hit: the ship only drifts, and may not ping or fire.",
        "A bridge hit puts a ship out of control for 1–5 of its own activations (for good on a "
        "6). Meanwhile it drifts at its course and speed, cannot ping, fire or launch, and its "
        "heavy missiles and fighter groups hold. Its screens still work.",
        (r"out of control",),
        section="core",
    ),
    Term(
        "Overwatch",
        "overwatch",
        "A ship that kept quiet: it may fire in any fire window until its next activation.",
        "A ship that ends its activation without pinging is on overwatch: whenever anyone pings, "
        "it may shoot at the revealed enemies, without spending its move. Every ship starts the "
        "game on overwatch; a ship that pinged is not on overwatch until its next quiet "
        "activation. Firing reveals it.",
        (r"overwatch",),
        section="overwatch",
    ),
    Term(
        "PING",
        "ping",
        "An active sensor sweep: shows your ship, may reveal enemies, and opens a fire window.",
        "Once per activation, before or after its move, a ship may ping. It shows its own "
        "position and heading to everyone, then rolls its sensor dice (1 basic, 2 enhanced, 3 "
        "superior) against each enemy ship's ECM dice: a higher die reveals the enemy. Then a "
        "fire window opens.",
        (r"PING", r"pings?", r"pinging", r"pinged", r"pinger"),
        section="ping",
    ),
    Term(
        "PINGED",
        "pinged",
        "The record sheet's mark: the ship was shown on the table at the end of this move.",
        "On a ship's own record sheet a move marked PINGED is one after which the ship was seen "
        "— by its own ping, an enemy ping or its firing. The enemy saw it there until it moved "
        "on.",
        (r"PINGED",),
        exact_case=True,
        section="revealed",
    ),
    Term(
        "Points and score",
        "points",
        "Each side scores the enemy ships it destroyed (full points) or put out of play (half).",
        "A design's points are its cost. A side scores the points of every enemy ship "
        "destroyed, and half the points of those out of play or gone off the table. At the turn "
        "limit the higher score wins.",
        (r"points", r"pts", r"score"),
        section="end",
    ),
    Term(
        "Point defence",
        "point-defence",
        "Guns that shoot down missiles and fighters in a defence window: PDS, ADFC, class-1 beams.",
        "A PDS rolls one rerolling beam die at an attack on its own ship: against a salvo each "
        "hit kills a missile, against a heavy missile or torpedo a 5+ destroys it, against "
        "fighters each hit kills a craft. An ADFC lets the PDS guard a friend within 6 mu; a "
        "class-1 beam may fire as a PDS for its own ship.",
        (r"point defence", r"PDS", r"ADFC"),
        section="ordnance",
    ),
    Term(
        "Referee",
        "referee",
        "An optional third seat that sees everything and may pause, rewind or end the game.",
        "A referee sees every true position, order and die as it happens (never the dice seed "
        "before the end), and may pause, rewind, end the game or add time. Each action and its "
        "reason are announced to everyone.",
        (r"referee",),
        section="start",
    ),
    Term(
        "Salvo",
        "salvo",
        "A missile salvo: a marker aimed at a point; at its next step 2 it hits the nearest enemy.",
        "A salvo is launched at an aim point in a fire window and waits there as a secret marker. "
        "At its mother ship's next activation it attacks the closest enemy within 6 mu of the "
        "point (3 with vector movement): 1D6 missiles get through, less those point defence "
        "killed, each doing 1d6.",
        (r"salvos?", r"salvo missiles?"),
        section="ordnance",
    ),
    Term(
        "Screens",
        "screens",
        "Energy shields: level 1 or 2 make beam dice harder to score with.",
        "Screens move beam dice into a harder column: against screen 1 a 4 no longer hits, "
        "against screen 2 a 6 scores only once. At most two levels count. Some weapons ignore "
        "screens (torpedoes, missiles, reroll dice).",
        (r"screens?",),
        section="dice",
    ),
    Term(
        "Stale marker",
        "stale",
        "Where an enemy was last seen, and when; it has moved since and may be anywhere near.",
        "When a live ship moves it becomes stale: both sides keep its last known position, "
        "heading and the turn it was seen, but nobody but its owner knows where it went. A stale "
        "ship cannot be fired at.",
        (r"stale markers?", r"stale", r"last seen", r"last known"),
        section="revealed",
    ),
    Term(
        "Stealth",
        "stealth",
        "A stealth hull shrinks the bands of every weapon aimed at it (×5/6 or ×2/3).",
        "A stealth design (level 1 or 2) shrinks every band aimed at it to 5/6 or 2/3, and its "
        "own weapons reach 24 mu at most. Stealth does not hide a ship from pings, and it is "
        "lost as hull rows are finished.",
        (r"stealth",),
        section="fire",
    ),
    Term(
        "Step 2",
        "step-2",
        "The part of an activation where a ship's missiles and fighters act, before its move.",
        "A ship with launchers or bays has a step 2 at every activation, between the first ping "
        "and the move: its markers in flight attack or move, its bays launch and its groups "
        "fly. Once step 2 has run, the ping before the move is given up.",
        (r"step 2",),
        section="ordnance",
    ),
    Term(
        "Game turn",
        "turn",
        "Every ship in play activates once; then damage control, and the next turn begins.",
        "A game turn is over when every ship still in play has activated once. The side with "
        "more ships in play activates first (a die roll on a tie). Every game has a turn limit, "
        "12 unless the game says otherwise.",
        (r"game turns?", r"turn limit"),
        section="turn",
    ),
    Term(
        "Heavy missile",
        "heavy-missile",
        "A guided missile its owner steers up to 18 mu each step 2 before it strikes.",
        "A heavy missile is a marker its owner moves up to 18 mu at each of the mother ship's "
        "activations; it attacks the closest enemy within 6 mu (3 with vector movement) of where "
        "it stops, and burns out when its endurance is gone. Its type (standard, long lance, "
        "EMP, needle, ECM decoy…) is a secret: its launch shows only \u201ca heavy missile\u201d.",
        (r"heavy missiles?",),
        section="ordnance",
    ),
    Term(
        "Marker",
        "marker",
        "Ordnance or a fighter group in flight: secret to its owner until it attacks.",
        "Every salvo, heavy missile, torpedo and fighter group in flight is a marker. Only its "
        "owner knows where it is; the enemy sees it only while it attacks (drawn beside its "
        "target), and never learns where it went afterwards.",
        (r"markers?",),
        section="ordnance",
    ),
    Term(
        "Threshold check",
        "threshold",
        "When damage finishes a hull row, every working system rolls a die and may fail.",
        "A batch of damage that finishes a hull row makes one threshold check: each working "
        "system rolls a d6 and is damaged on 6 after the first row, 5+ after the second, 4+ "
        "after the third (one more for the core systems). Each extra row finished in the same "
        "batch adds +1 to the dice.",
        (r"threshold checks?", r"thresholds?"),
        section="damage",
    ),
    Term(
        "Thrust",
        "thrust",
        "A drive's power: the most a ship may change speed plus turn in one move.",
        "The main drive's thrust limits each move (cinematic: speed change plus turn; vector: "
        "the burn). A damaged drive halves it; a destroyed one leaves 0.",
        (r"thrust",),
        section="move",
    ),
    Term(
        "Torpedo",
        "torpedo",
        "AMT: an anti-matter torpedo that homes a little and blasts everything within 3 mu.",
        "An anti-matter torpedo (AMT) is launched at a point, moves up to 6 mu (3 with vector) "
        "towards the nearest enemy at its mother's next activation and explodes: 3D6 within 1 "
        "mu, 2D6 within 2, 1D6 within 3, friends included. Pulse torpedoes are direct-fire "
        "weapons: one die to hit, then dice of damage to the hull.",
        (r"AMTs?", r"torpedo(?:es)?"),
        section="ordnance",
    ),
    Term(
        "Unseen",
        "unseen",
        "Never revealed: nothing is known of where the ship is.",
        "Every ship starts unseen. Until something reveals it, the other side knows only that it "
        "exists and what design it is.",
        (r"unseen", r"not seen"),
        section="revealed",
    ),
    Term(
        "Volley",
        "volley",
        "All shots of a fire window, resolved at the same moment once both sides declared.",
        "A volley rolls the dice of every declared shot, then applies all damage, then the "
        "threshold checks, then removes the destroyed. A ship destroyed in the volley still "
        "fires in it, and every ship that fired is revealed.",
        (r"volleys?",),
        section="fire",
    ),
)

BY_ANCHOR = {term.anchor: term for term in GLOSSARY}


def glossary_json() -> dict[str, Any]:
    """What ``static/js/terms.js`` reads: each term's anchor, hover text and written forms."""
    return {
        "terms": [
            {
                "name": term.name,
                "href": f"/help#{term.anchor}",
                "short": term.short,
                "forms": list(term.forms),
                "case": term.exact_case,
            }
            for term in GLOSSARY
        ]
    }


def check_forms() -> None:
    """Every form compiles and matches something; a form that matched the empty string would
    wrap nothing forever."""
    for term in GLOSSARY:
        for form in term.forms:
            pattern = re.compile(form)
            assert not pattern.fullmatch(""), (term.slug, form)
