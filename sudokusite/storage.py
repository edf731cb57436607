"""Static files in production: WhiteNoise's hashed, compressed storage, which also rewrites the
board's ES module imports to the hashed names."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticStorage(CompressedManifestStaticFilesStorage):
    """`import { ... } from "./sudoku.js"` in js/board.js is collected as
    `from "./sudoku.<hash>.js"` in js/board.<hash>.js: every module is cached for good, and a new
    release never pairs a fresh module with a stale one.

    Django does this for `./` and `../` imports that end in `;` only when asked (it is off by
    default); the modules must not import each other in a cycle, since each hash depends on the
    hashes it names.
    """

    support_js_module_import_aggregation = True
