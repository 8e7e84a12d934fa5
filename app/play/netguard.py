"""Where the server may send a notification: http(s) URLs of public hosts only.

A webhook or push endpoint is a URL a seat gives the server to call: left unchecked, it would
let anyone make the server call its own admin pages or the machines of its private network.
So a URL is refused unless it is http(s), carries no credentials, and every address its host
resolves to is public (not loopback, private, link-local, reserved, multicast, unspecified,
nor one of this machine's own). The check runs when the URL is set and again right before each
send (DNS can change in between), and the send then goes to the address that was checked.
``allow_private`` (the operator's ``PINGDUEL_WEBHOOK_ALLOW_PRIVATE=1``) lifts the address rule.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

MAX_URL = 2000


class BadUrl(ValueError):
    """The URL itself is refused (scheme, credentials, length, no host)."""


class PrivateAddress(ValueError):
    """The URL's host is (or resolves to) an address the server does not call."""


@dataclass(frozen=True, slots=True)
class Checked:
    url: str
    host: str
    port: int
    address: str  # the checked address the send must go to


def parse(url: str) -> tuple[str, str, int]:
    """The URL's scheme, host and port; ``BadUrl`` when it cannot be a notification URL."""
    if len(url) > MAX_URL:
        raise BadUrl(f"the URL is longer than {MAX_URL} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BadUrl("the URL cannot be parsed") from exc
    if parts.scheme not in ("http", "https"):
        raise BadUrl("the URL must start with http:// or https://")
    if parts.username is not None or parts.password is not None:
        raise BadUrl("the URL must not carry a user name or password")
    if not parts.hostname:
        raise BadUrl("the URL names no host")
    if any(c.isspace() for c in url):
        raise BadUrl("the URL must not contain spaces")
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


@cache
def _own_addresses() -> frozenset[str]:
    """This machine's addresses by its host name (besides loopback, refused anyway)."""
    try:
        _, _, found = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        return frozenset()
    return frozenset(found)


def refused(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (
        not ip.is_global
        or ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
        or str(ip) in _own_addresses()
    )


async def check(url: str, allow_private: bool, own_hosts: frozenset[str] = frozenset()) -> Checked:
    """The URL with the address to send to, or ``BadUrl`` / ``PrivateAddress``."""
    _, host, port = parse(url)
    if host.lower() in own_hosts and not allow_private:
        raise PrivateAddress(f"{host} is this server's own address")
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise BadUrl(f"the host {host} does not resolve") from exc
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise BadUrl(f"the host {host} does not resolve")
    if not allow_private:
        for address in addresses:
            if refused(address):
                raise PrivateAddress(f"{host} resolves to {address}, a private or reserved address")
    return Checked(url, host, port, addresses[0])
