"""Checks of the edge's settings, run when ``Settings`` is built: a wrong value stops the
service at start with a sentence saying what to write, instead of failing at the first
request (or never, for a limit nobody hits)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from limits import parse_many
from pydantic import SecretStr

MIN_ADMIN_TOKEN = 32
# storages this service knows how to drive: memory in the worker, Redis shared by hosts
MEMORY_SCHEMES = {"memory"}
REDIS_SCHEMES = {"redis", "rediss", "redis+unix", "redis+sentinel", "redis+cluster"}


def admin_token(value: object) -> object:
    """An empty token is no token (a compose file passes ``""`` when it is not set); a short
    one is refused: the admin token is the referee of every game."""
    text = value.get_secret_value() if isinstance(value, SecretStr) else value
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    if isinstance(text, str) and len(text) < MIN_ADMIN_TOKEN:
        raise ValueError(
            f"PINGDUEL_ADMIN_TOKEN is {len(text)} characters long: it must have at least "
            f"{MIN_ADMIN_TOKEN} (random ones: `openssl rand -hex 32`), or be left unset for "
            "a server without an admin"
        )
    return value


def rate(value: str) -> str:
    """A rate in the ``limits`` notation: ``30/minute``, ``10/second;600/minute``."""
    try:
        parsed = parse_many(value)
    except ValueError:
        parsed = []
    if not parsed:
        raise ValueError(
            f"{value!r} is not a rate: write N/second, N/minute, N/hour or N/day, several "
            "joined by ';' (e.g. '10/second;600/minute')"
        )
    return value


def proxies(value: str) -> str:
    """Comma-separated IP addresses or networks (CIDR), or ``*`` for any peer. uvicorn would
    take a mistyped address as a host name that never matches: refuse it here instead."""
    for item in (p.strip() for p in value.split(",")):
        if not item or item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(
                f"PINGDUEL_TRUSTED_PROXIES: {item!r} is not an IP address or a network "
                "(write e.g. '10.0.0.5' or '172.30.0.0/24', comma-separated)"
            ) from None
    return value


def storage(value: str) -> str:
    scheme = urlsplit(value).scheme
    if scheme in MEMORY_SCHEMES:
        return value
    if scheme not in REDIS_SCHEMES:
        raise ValueError(
            f"PINGDUEL_RATE_LIMIT_STORAGE: {value!r} is not a storage this service uses: "
            "'memory://' (each worker counts alone) or 'redis://host:6379' (shared)"
        )
    try:
        import redis  # noqa: F401
    except ImportError:
        raise ValueError(
            "PINGDUEL_RATE_LIMIT_STORAGE names Redis but the redis client is not installed: "
            "pip install 'pingduel[redis]' (or redis==8.1.0)"
        ) from None
    return value
