"""Static files in production: WhiteNoise's hashed, compressed storage, which also rewrites the
board's ES module imports to the hashed names, and serves our own CSS and JS without their
comments and indentation, so the board's page downloads fewer bytes (bench/page_weight.py weighs
it; docs/performance.md has the figures)."""

from __future__ import annotations

import re

from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

# Our own files (static/js, static/css); the admin's and other apps' are served as they come.
OURS = ("js/", "css/")

JS_BLOCK_COMMENT = re.compile(r"^[ \t]*/\*.*?\*/[ \t]*\n", re.MULTILINE | re.DOTALL)
JS_LINE_COMMENT = re.compile(r"^[ \t]*//[^\n]*\n", re.MULTILINE)
CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
INDENT = re.compile(r"^[ \t]+", re.MULTILINE)
BLANK_LINES = re.compile(r"\n{2,}")


def compact(name: str, text: str) -> str:
    """A CSS or JS file of ours as production serves it: the same code, line for line, without
    comments that stand on lines of their own (JS; every comment in CSS), indentation and blank
    lines. Nothing else changes: the modules' import lines keep the form Django's rewriting to
    hashed names looks for, and a comment after code on its line stays (it may sit in a string).
    Our JS has no string or template literal that spans lines, which is what makes this safe."""
    if name.endswith(".js"):
        text = JS_LINE_COMMENT.sub("", JS_BLOCK_COMMENT.sub("", text))
    elif name.endswith(".css"):
        text = CSS_COMMENT.sub("", text)
    else:
        return text
    return BLANK_LINES.sub("\n", INDENT.sub("", text)).lstrip("\n")


class _Compacted:
    """A source storage whose CSS and JS files of ours read compacted (the rest as they are)."""

    def __init__(self, storage) -> None:
        self.storage = storage

    def open(self, path: str, mode: str = "rb"):
        file = self.storage.open(path, mode)
        if not path.startswith(OURS) or not path.endswith((".js", ".css")):
            return file
        with file:
            text = file.read().decode()
        return ContentFile(compact(path, text).encode(), name=path)

    def __getattr__(self, name: str):
        return getattr(self.storage, name)


HASH_DIGITS = 8


class HashedStaticStorage(CompressedManifestStaticFilesStorage):
    """`import { ... } from "./sudoku.js"` in js/board.js is collected as
    `from "./sudoku.<hash>.js"` in js/board.<hash>.js: every module is cached for good, and a new
    release never pairs a fresh module with a stale one.

    Django does this for `./` and `../` imports that end in `;` only when asked (it is off by
    default); the modules must not import each other in a cycle, since each hash depends on the
    hashes it names. The hashed copies are made from the compacted files (compact), so a hash
    names exactly what is served.
    """

    support_js_module_import_aggregation = True
    # A module's hash waits on the hashes of the modules it names, so a chain of imports n deep
    # (board.js -> tools.js -> ... -> sudoku.js, ten today, counting the dynamic ones) may take n
    # passes, in whatever order the files are found; Django stops at 5.
    max_post_process_passes = 20

    def file_hash(self, name, content=None):
        """Eight hex digits of Django's twelve: a name's hash only has to change when its file does
        (a 1 in 4 billion chance it does not), and the twelve cost the puzzle page some 270 bytes
        gzip cannot shrink, in each link and each module's imports (docs/performance.md)."""
        found = super().file_hash(name, content)
        return found[:HASH_DIGITS] if found else found

    def post_process(self, paths, dry_run=False, **options):
        compacted = {path: (_Compacted(storage), source) for path, (storage, source) in paths.items()}
        yield from super().post_process(compacted, dry_run, **options)
