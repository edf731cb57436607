"""Usernames that read as another: the confusable skeleton of Unicode TR39, cut down to the
characters a username may hold (ASCII letters, digits and . _ -, adapter.USERNAME_VALIDATORS).

Two names with one skeleton look alike on a page ("aIice", "a1ice" and "alice"), so a name whose
skeleton a taken name has is refused at sign-up (adapter.AccountAdapter.clean_username).
"""

from __future__ import annotations

import re
import string

from django.contrib.auth import get_user_model

# TR39's confusables among the allowed characters, mapped before case folding so that a capital
# I reads as the l it looks like (folded first, it would be an i): I and 1 are l, 0 is O.
LOOKALIKES = str.maketrans({"I": "l", "1": "l", "0": "O"})
# Pairs that read as one letter once folded (TR39: "rn" is "m").
SEQUENCES = (("rn", "m"),)

ALPHABET = string.ascii_letters + string.digits + "._-"


def skeleton(name: str) -> str:
    """The form two look-alike names share: `skeleton("aIice") == skeleton("A1ice") == "alice"`."""
    folded = name.translate(LOOKALIKES).casefold()
    for pair, letter in SEQUENCES:
        folded = folded.replace(pair, letter)
    return folded


# Which characters of the alphabet fold to each letter of a skeleton, and which pairs: a pattern
# that finds every name with a given skeleton (and perhaps a few more, checked after).
SOURCES: dict[str, list[str]] = {}
for _char in ALPHABET:
    SOURCES.setdefault(skeleton(_char), []).append(_char)
for _pair, _letter in SEQUENCES:
    SOURCES.setdefault(_letter, []).append("".join("[" + "".join(SOURCES[p]) + "]" for p in _pair))


def _pattern_of(letter: str) -> str:
    """A pattern for everything that folds to one letter of a skeleton. Only letters and digits
    go inside brackets, where PostgreSQL's and Python's escapes differ."""
    sources = SOURCES.get(letter, [letter])
    if sources == [letter]:
        return re.escape(letter)
    singles = "".join(s for s in sources if len(s) == 1)
    return "(?:" + "|".join([f"[{singles}]", *(s for s in sources if len(s) > 1)]) + ")"


def lookalike_pattern(name: str) -> str:
    """A regular expression (for the database too) matching every name with `name`'s skeleton."""
    return "^" + "".join(_pattern_of(letter) for letter in skeleton(name)) + "$"


def lookalike_taken(name: str, excluding: int | None = None) -> str | None:
    """A taken username that reads as `name` (its own spelling aside, which allauth refuses
    itself), or None; `excluding`: a user whose own name does not count (one changing theirs)."""
    candidates = get_user_model().objects.filter(username__regex=lookalike_pattern(name))
    if excluding is not None:
        candidates = candidates.exclude(pk=excluding)
    wanted = skeleton(name)
    for taken in candidates.values_list("username", flat=True)[:50]:
        if skeleton(taken) == wanted:
            return taken
    return None
