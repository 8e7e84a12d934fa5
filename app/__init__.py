"""pingduel: Full Thrust hidden-movement duels (the PING rules) played over the network."""
