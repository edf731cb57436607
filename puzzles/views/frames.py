"""Pages drawn once and filled in per request: the home page, the results and their page.

A page the players open most is mostly the same for everyone who sees it in the same state: the
links, the headings, the words. Drawing it through the template engine on every request cost
more than everything else the request did. So such a page is drawn once per shape (what its
`{% if %}`s test: a frame's key), with a mark in place of each value that is the reader's own,
cut at the marks and kept in the process's memory; a request fills the marks with its values,
escaped as the template would have escaped them. The frame holds nothing of whoever asked first.

    frame = cut(render_to_string("page.html", {**shape, **marks("time", "name")}))
    html = filled(frame, {"time": "4:05", "name": player_name})

Each page that does so has a test holding its filled frame to the template drawn whole.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

# A part's mark: a name between two NUL characters, which no template nor value of the site holds.
PART_MARK = re.compile("\x00([a-z_]+)\x00")


def mark(name: str) -> SafeString:
    """The mark of the part `name`, safe so the template puts it in as it is."""
    return mark_safe(f"\x00{name}\x00")


def marks(*names: str) -> dict[str, SafeString]:
    return {name: mark(name) for name in names}


def cut(html: str) -> tuple[str, ...]:
    """The drawing cut at its marks: text, a part's name, text, ..."""
    return tuple(PART_MARK.split(html))


def filled(frame: Iterable[str], values: Mapping[str, Any]) -> str:
    """The frame with each part's value in place of its mark, as `{{ value }}` draws it: localized,
    and escaped unless it is safe HTML already."""
    return "".join(drawn(values[part]) if n % 2 else part for n, part in enumerate(frame))


def drawn(value: Any) -> str:
    """A value as `{{ value }}` draws it. Most are text, safe HTML or a whole number: those are
    drawn here as the template would (localize() gives text as it is, and an int without thousand
    separators as its digits), without the locale's lookups, which cost more than the rest of a
    part; anything else goes through localize() itself."""
    kind = type(value)
    if kind is SafeString:
        return value
    if kind is str:
        return html.escape(value)  # django.utils.html.escape's own rule, without its lazy wrapper
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return conditional_escape(localize(value))
