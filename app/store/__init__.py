"""Storage: the games, seats, invites, the event log and idempotency records (SQLAlchemy 2.0)."""
