"""The side frames of a stream (issue 15): ``event: chat`` and ``event: rematch``.

They carry no seq (no ``id:`` line, so a reconnect still resumes from the last event) and no
text: ``chat`` says only which channel has lines up to which number, ``rematch`` only that
the game's rematch changed. The client then asks ``…/chat?after=N`` or ``…/rematch``.
"""

from __future__ import annotations

import json

from app.live.hub import CHAT, REMATCH, Subscription
from app.live.sse import frame

SIDE_FLAGS = CHAT | REMATCH


def follow_chat(sub: Subscription, seat: str) -> Subscription:
    """The stream follows the chat channel of its seat: spectators theirs, seats the players'."""
    sub.chat = "spectators" if seat == "spectator" else "players"
    return sub


def side_frames(sub: Subscription, why: int) -> bytes:
    out = b""
    if why & CHAT and sub.chat is not None:
        out += frame("chat", json.dumps({"channel": sub.chat, "n": sub.chat_n}))
    if why & REMATCH:
        out += frame("rematch", "{}")
    return out
