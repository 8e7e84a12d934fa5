"""What the server accepts from clients before it parses or stores it.

- JSON nested deeper than ``MAX_JSON_DEPTH`` is refused before it is parsed: Python's parser
  recurses once per level and fails (``RecursionError``) about a thousand levels down, and no
  body of this API needs more than nine (a game's sides with inline designs).
"""

from __future__ import annotations

import re

MAX_JSON_DEPTH = 32
# a JSON string (skipped whole: brackets inside it are text) or one bracket
_JSON_TOKENS = re.compile(rb'"(?:[^"\\]+|\\.)*"|[\[\]{}]', re.S)
TOO_DEEP = (
    f"the JSON is nested deeper than {MAX_JSON_DEPTH} levels "
    "(a design needs four, a game with inline designs nine): send it flatter"
)


def too_deep(text: str | bytes) -> bool:
    """Whether JSON text opens more than ``MAX_JSON_DEPTH`` arrays or objects at once; counted
    without parsing it (malformed JSON is the parser's to report)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth = 0
    for match in _JSON_TOKENS.finditer(raw):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif token in (b"]", b"}"):
            depth -= 1
    return False
