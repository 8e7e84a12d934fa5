"""Web Push: the server's VAPID key pair and the encrypted request of one notification.

The key pair is the operator's (``PINGDUEL_VAPID_PRIVATE_KEY``, a PEM) or generated on first
start into the data directory, like the secret key: browsers tie a subscription to the public
key, so it must outlive restarts. The payload is encrypted for the subscription's keys
(aes128gcm, by ``pywebpush``) and signed with a VAPID header; the sender posts it itself, so
that the address check and the no-redirect rule apply as to webhooks.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid  # type: ignore[import-untyped]

TTL = 24 * 60 * 60  # seconds a push service keeps a notification for an offline browser


@dataclass(frozen=True)
class PushKeys:
    vapid: Any
    subject: str

    @property
    def public_key(self) -> str:
        """The application server key a browser subscribes with (base64url, unpadded)."""
        raw = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def load_keys(data_dir: Path, pem: str | None, subject: str) -> PushKeys:
    if pem is None:
        path = data_dir / "vapid_private.pem"
        if not path.exists():
            data_dir.mkdir(parents=True, exist_ok=True)
            fresh = Vapid()
            fresh.generate_keys()
            path.write_bytes(fresh.private_pem())
            path.chmod(0o600)
        pem = path.read_text()
    return PushKeys(Vapid.from_pem(pem.encode()), subject)


def push_request(
    keys: PushKeys, subscription: dict[str, Any], payload: bytes
) -> tuple[bytes, dict[str, str]]:
    """The encrypted body and the headers of one push to this subscription."""
    # imported here: pywebpush pulls in aiohttp, a fifth of a second at every server start
    from pywebpush import WebPusher  # type: ignore[import-untyped]

    encoded = WebPusher(subscription).encode(payload, "aes128gcm")
    parts = urlsplit(str(subscription["endpoint"]))
    claims = {
        "sub": keys.subject,
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 60 * 60,
    }
    headers = {str(k): str(v) for k, v in keys.vapid.sign(claims).items()}
    headers.update({"Content-Encoding": "aes128gcm", "TTL": str(TTL), "Urgency": "normal"})
    return bytes(encoded["body"]), headers
