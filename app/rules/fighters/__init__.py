"""Fighter and drone groups in the hidden-movement loop (issue 13; RULES §9.1, §9.3–9.5).

A group is a marker (``MarkerState`` of kind fighters or drones) once launched from a bay; a bay
holds at most one group (``ShipState.bays``). Step 2 launches, moves and lands them; their line
of sight reveals enemies near them; the fighters step lets the side choose their attacks.
"""
