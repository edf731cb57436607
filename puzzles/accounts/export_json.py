"""Download my data, the writing: JSON values as compact text, and lists in chunks, so that the
export (export.py) is written as it is read and never held whole."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

ITEMS_PER_CHUNK = 100  # list items written in one chunk: some kilobytes to a megabyte


def _plain(value: object) -> Any:
    """What json cannot write by itself: dates and times, as ISO 8601 (times with their offset, UTC)."""
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not written in the export")


def dump(value: object) -> str:
    """One value as compact JSON (UTF-8 as it is: names and the reviews' words stay readable)."""
    return json.dumps(value, default=_plain, ensure_ascii=False, separators=(",", ":"))


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
