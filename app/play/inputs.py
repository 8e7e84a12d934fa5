"""What the server accepts from clients before it parses or stores it.

- JSON nested deeper than ``MAX_JSON_DEPTH`` is refused before it is parsed: Python's parser
  recurses once per level and fails (``RecursionError``) about a thousand levels down, and no
  body of this API needs more than nine (a game's sides with inline designs).
- Text holding a NUL or a lone surrogate is refused wherever it comes in: PostgreSQL cannot
  store a NUL in text, and a lone surrogate (legal in JSON's ``\\ud800`` escapes, but no
  character) can be stored on SQLite and then fails every answer that carries it, for everyone.
  Valid pairs are fine: JSON's ``\\ud83d\\ude80`` is one character by the time it is parsed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

MAX_JSON_DEPTH = 32
_BRACKET_OR_QUOTE = re.compile(rb'["\[\]{}]')  # one byte class: a linear scan
TOO_DEEP = (
    f"the JSON is nested deeper than {MAX_JSON_DEPTH} levels "
    "(a design needs four, a game with inline designs nine): send it flatter"
)


def _string_end(raw: bytes, start: int) -> int:
    """The index just past the quote that closes the string opened before ``start``, or -1.
    Linear in the text: each quote is looked at once, each backslash run before it once (a
    regular expression with nested repetition backtracks exponentially on an open string)."""
    at = start
    while True:
        quote = raw.find(b'"', at)
        if quote < 0:
            return -1
        slashes = 0
        while quote - slashes - 1 >= start and raw[quote - slashes - 1] == 0x5C:
            slashes += 1
        if slashes % 2 == 0:
            return quote + 1
        at = quote + 1


def too_deep(text: str | bytes) -> bool:
    """Whether JSON text opens more than ``MAX_JSON_DEPTH`` arrays or objects at once; counted
    without parsing it (malformed JSON is the parser's to report). Brackets inside strings are
    text and do not count."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth = 0
    at = 0
    while (match := _BRACKET_OR_QUOTE.search(raw, at)) is not None:
        token = match.group()
        at = match.end()
        if token == b'"':
            at = _string_end(raw, at)
            if at < 0:
                return False  # an open string: malformed, the parser says so
        elif token in (b"[", b"{"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        else:
            depth -= 1
    return False


_SURROGATE = re.compile("[\ud800-\udfff]")


def text_fault(text: str) -> str | None:
    """What makes a text unacceptable (to be said after its field's name), or None."""
    if "\x00" in text:
        return "holds a NUL character (U+0000), which no text may hold: remove it"
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:
        return (
            f"holds a lone surrogate (U+{ord(surrogate.group()):04X}), which is not a "
            "character: send the text as valid Unicode"
        )
    return None


def text_faults(value: Any, limit: int = 20) -> Iterator[tuple[str, str]]:
    """Every string (and object key) of a parsed JSON value that ``text_fault`` refuses, as
    ``(field, message)`` with the field as a dotted path (``sides.A.ships.0.name``; an object's
    own path, ``body`` at the top, for one of its keys). At most ``limit`` of them; the walk
    uses no recursion (the value may be as deep as ``MAX_JSON_DEPTH``)."""
    found = 0
    stack: list[tuple[str, Any]] = [("", value)]
    while stack and found < limit:
        where, item = stack.pop()
        if isinstance(item, str):
            fault = text_fault(item)
            if fault is not None:
                found += 1
                yield where or "body", fault
        elif isinstance(item, dict):
            children = []
            for key, child in item.items():
                fault = text_fault(key)
                if fault is not None:
                    found += 1
                    yield where or "body", "a field name " + fault
                    continue
                children.append((f"{where}.{key}" if where else key, child))
            stack.extend(reversed(children))  # popped in document order
        elif isinstance(item, list):
            stack.extend(
                (f"{where}.{i}" if where else str(i), child)
                for i, child in reversed(list(enumerate(item)))
            )
