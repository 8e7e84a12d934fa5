"""Tests of the service's edge: rate limits, client addresses behind proxies, start checks."""
