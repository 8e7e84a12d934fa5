"""Small helpers for the sentences the pages build from names and counts: the possessive, a
count with its noun, the article, the first capital, and tidy spacing. Names are the players'
own (sides, ships): the helpers never change a letter of them but the first one's case."""

from __future__ import annotations

import re

# words that take "a" although they start with a vowel letter (a "y" sound)
_YOU_SOUND = ("uni", "use", "usu", "uti", "eu", "one")
# acronyms read letter by letter whose first letter's name starts with a vowel sound
_VOWEL_LETTERS = set("AEFHILMNORSX")
# nouns the log uses without an article (not counted)
_UNCOUNTED = {"ordnance"}


def possessive(name: str) -> str:
    """ "Lance's", "Raiders'" (never "Raiders's"), "your" for "you"."""
    if not name:
        return name
    if name in ("you", "You"):
        return name[0] + "our"
    return f"{name}'" if name[-1] in "sS" else f"{name}'s"


# the log's nouns whose plural no ending rule gives
_IRREGULAR = {"die": "dice", "torpedo": "torpedoes"}


def owned_by_one(name: str) -> str:
    """A singular name's possessive (a ship): "Albatross's", "your Lance's", "your"."""
    return possessive(name) if name in ("you", "You") or not name else f"{name}'s"


def plural_of(word: str) -> str:
    """The plural of a noun or of a phrase's last word: "launches", "parties", "needle dice"."""
    head, _, last = word.rpartition(" ")
    if last in _IRREGULAR:
        many = _IRREGULAR[last]
    elif last.endswith(("s", "x", "z", "ch", "sh")):
        many = last + "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        many = last[:-1] + "ies"
    else:
        many = last + "s"
    return f"{head} {many}" if head else many


def plural(count: int, word: str, many: str | None = None) -> str:
    """ "1 ship", "2 ships", "0 launches"; ``many`` for a plural of its own."""
    return f"{count} {word if abs(count) == 1 else (many or plural_of(word))}"


def a_or_an(words: str) -> str:
    """ "a salvo", "an antimatter torpedo", "an EMP heavy missile"; an uncounted noun alone."""
    if not words or words.split(" ", 1)[0] in _UNCOUNTED:
        return words
    first = words.split(" ", 1)[0]
    if len(first) > 1 and first.isupper():
        vowel = first[0] in _VOWEL_LETTERS
    else:
        low = first.lower()
        vowel = low[:1] in "aeiou" and not low.startswith(_YOU_SOUND)
    return ("an " if vowel else "a ") + words


def cap(text: str) -> str:
    """The first letter in upper case, the rest as it was (``str.capitalize`` would lower-case
    a ship's name)."""
    return text[:1].upper() + text[1:]


_SPACES = re.compile(r"\s{2,}")
_BEFORE_STOP = re.compile(r"\s+([.,;:!?])")


def tidy(text: str) -> str:
    """One space between words, none before a stop or a comma, none at the ends (a sentence
    built from optional parts leaves gaps where a part was empty)."""
    return _BEFORE_STOP.sub(r"\1", _SPACES.sub(" ", text)).strip()


# the pages' Jinja filters: ``{{ side | possessive }}``, ``{{ n | plural('ship') }}``
FILTERS = {"possessive": possessive, "plural": plural, "cap": cap, "a_or_an": a_or_an}
