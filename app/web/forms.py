"""Reading numbers out of form fields: ASCII only, bounded.

``str.isdigit()``, ``int()`` and ``float()`` accept far more than a browser's number field
sends (``"²"`` is a digit to the first and not a number to the second; ``"١"``, ``"１"`` and
``"1_0"`` are numbers to ``int()``; ``"inf"`` and ``"nan"`` are floats): each reader here takes
the plain ASCII spelling alone and answers ``None`` for anything else, so that the caller can
say which field is wrong.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from app.play import inputs

MAX_SEQ = 2**31 - 1  # the API's bound on a seq (``after``, ``to_seq``)
_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")
_SEQ = re.compile(r"[0-9]{1,10}")
_DECIMAL = re.compile(
    r"[+-]?(?:[0-9]{1,12}(?:\.[0-9]{0,12})?|\.[0-9]{1,12})(?:[eE][+-]?[0-9]{1,3})?"
)


def whole(text: str | None) -> int | None:
    """A whole number of at most nine digits, with an optional sign, spaces around allowed."""
    text = (text or "").strip()
    return int(text) if _WHOLE.fullmatch(text) else None


def seq(text: str | None) -> int | None:
    """A seq: ASCII digits, 0 … 2³¹−1."""
    text = (text or "").strip()
    if not _SEQ.fullmatch(text):
        return None
    value = int(text)
    return value if value <= MAX_SEQ else None


def decimal(text: str | None) -> float | None:
    """A finite decimal number (``30.5``, ``-2``, ``.5``, ``3e1``)."""
    text = (text or "").strip()
    if not _DECIMAL.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


# a refused form is drawn again as it was filled in: its fields, bounded, without the ones
# the page itself writes afresh (the CSRF value, the idempotency key)
KEPT_FIELDS = 200
KEPT_LENGTH = 200
_NOT_KEPT = frozenset({"csrf", "idem", "at_seq"})


def kept(form: Mapping[str, Any]) -> dict[str, str]:
    """A refused form's input by field name (the last value of a repeated one): text only,
    each value cut to ``KEPT_LENGTH``, text no field may hold (a NUL) left out."""
    out: dict[str, str] = {}
    items = form.multi_items() if hasattr(form, "multi_items") else list(form.items())
    for name, value in items:
        if len(out) >= KEPT_FIELDS and name not in out:
            break
        if not isinstance(name, str) or not isinstance(value, str) or name in _NOT_KEPT:
            continue
        if inputs.text_fault(name) is not None or inputs.text_fault(value) is not None:
            continue
        out[name[:KEPT_LENGTH]] = value[:KEPT_LENGTH]
    return out
