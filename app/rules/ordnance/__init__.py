"""Ordnance (RULES §9.1–9.3): launches in a fire window, markers in flight, step 2, strikes.

``launch``: the checks of a launch and the launch options; ``markers``: marker ids and the
mother ship's step 2; ``strike``: what the attacks do; ``window``: between step 2 and the strike
(the defence window, RULES §9.5); ``fold``: how the ordnance events change the state.
"""
