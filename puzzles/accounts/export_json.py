"""Download my data, the writing: JSON values as compact text, and lists in chunks, so that the
export (export.py) is written as it is read and never held whole.

orjson writes the text: a year of every daily is some 100,000 moves, and the standard library's
encoder took a quarter of that export's time where orjson takes a thirtieth (bench/export.py).
It writes dates and times itself, as ISO 8601 with their offset, as isoformat() does."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson

ITEMS_PER_CHUNK = 100  # list items written in one chunk: some kilobytes to a megabyte


def dump(value: object) -> str:
    """One value as compact JSON (UTF-8 as it is: names and the reviews' words stay readable)."""
    return orjson.dumps(value).decode()


def array(items: Iterable[Any], encode: Callable[[Any], str] = dump) -> Iterator[str]:
    """A JSON list of the items, each encoded (or JSON text already, with encode=str), one a line,
    ITEMS_PER_CHUNK a chunk."""
    yield "["
    batch: list[str] = []
    first = True
    for item in items:
        batch.append(encode(item))
        if len(batch) == ITEMS_PER_CHUNK:
            yield ("\n" if first else ",\n") + ",\n".join(batch)
            batch, first = [], False
    if batch:
        yield ("\n" if first else ",\n") + ",\n".join(batch)
    yield "]"
