"""Server-Sent Events read line by line: just what the game's stream sends.

The stream's frames are ``id``/``event``/``data`` lines ended by a blank line, and comment
lines (``:``) that only keep the connection open; see ``docs/api.md``, "Reading events and the
stream". A small parser is enough, and it keeps a dependency out.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    event: str
    data: str
    id: str | None  # None for frames without an id (chat and rematch hints)


class Parser:
    """Feed it lines (without their line ending); it hands back each finished message."""

    def __init__(self) -> None:
        self._event = ""
        self._data: list[str] = []
        self._id: str | None = None

    def feed(self, line: str) -> Message | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None  # a keep-alive comment
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "id" and "\0" not in value:
            self._id = value
        return None  # "retry" and unknown fields are ignored, as the SSE standard says

    def _dispatch(self) -> Message | None:
        event, data, seen = self._event, self._data, self._id
        self._event, self._data, self._id = "", [], None
        if not data and seen is None:
            return None
        return Message(event or "message", "\n".join(data), seen)


async def messages(lines: AsyncIterable[str]) -> AsyncIterator[Message]:
    parser = Parser()
    async for line in lines:
        message = parser.feed(line.rstrip("\r\n"))
        if message is not None:
            yield message
