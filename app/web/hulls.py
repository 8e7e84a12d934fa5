"""Ship silhouettes for the map: an outline by whose ship it is, a size and markings by the
hull's class.

Two outlines, told apart without colour: a dart (a notched back) and a gem (a pointed back). A
player sees its own ships as darts and enemies as gems on either side's page; a spectator or
the referee, who look as no side, see side A as darts and side B as gems. The outline stays the
same within a family (so the legend's key is the marker's own path); the class, from the
design's mass (public with the roster), sets its size and its markings: an escort is small and
plain, a cruiser has a spine, a capital ship is large with a spine and a cross-deck.
"""

from __future__ import annotations

# mass at most this: escort; at most CRUISER: cruiser; heavier: capital (Full Thrust's usual
# split of hull sizes; the designs' own class names vary too much to read)
ESCORT = 30
CRUISER = 80
CLASSES = ("escort", "cruiser", "capital")

DART = "M0,-2 L0.6,-0.55 L1.3,1.4 L0,0.75 L-1.3,1.4 L-0.6,-0.55 Z"
DIAMOND = "M0,-2.1 L1.2,-0.35 L0.8,1.05 L0,1.8 L-0.8,1.05 L-1.2,-0.35 Z"
SCALE = {"escort": 0.78, "cruiser": 1.0, "capital": 1.32}
# the markings, drawn over the outline (the spine runs from the centre to the bow, so the
# heading reads at a glance too)
MARKINGS = {
    "escort": "M0,-1.1 L0,-0.3",
    "cruiser": "M0,-1.35 L0,0.45",
    "capital": "M0,-1.45 L0,0.55 M-0.62,-0.15 L0.62,-0.15",
}
HALO = {"escort": 2.0, "cruiser": 2.5, "capital": 3.1}  # the selection ring's radius, mu
# what the page says of a silhouette: its size, not a class name, which would clash with the
# design's own class ("Lance, frigate" drawn as a small hull, not called an "escort")
WORDS = {"escort": "small hull", "cruiser": "medium hull", "capital": "large hull"}


def hull_class(mass: float | None) -> str:
    if mass is None:
        return "cruiser"
    if mass <= ESCORT:
        return "escort"
    return "cruiser" if mass <= CRUISER else "capital"


def outline(dart: bool, cls: str = "cruiser") -> str:
    """The family's outline (the class changes its size and markings, not its path)."""
    return DART if dart else DIAMOND
