"""Secrets: 256-bit random tokens and invite codes, kept only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def new_code() -> str:
    return secrets.token_urlsafe(16)  # 128 bits; single use


def new_id() -> str:
    # lowercase letters and digits only: safe in URLs, no ':' (the dice message separator)
    alphabet = "abcdefghijkmnopqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))


def new_seed() -> bytes:
    return secrets.token_bytes(32)


class Hashed(str):
    """A credential the server already holds as its hash: a seat a browser id maps to. Only
    server code makes one (a header or a form gives a plain ``str``), so a stored hash sent
    as a token is never taken for the token itself."""

    __slots__ = ()


def digest(secret: str) -> str:
    if isinstance(secret, Hashed):
        return str.__str__(secret)
    return hashlib.sha256(secret.encode()).hexdigest()


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())
