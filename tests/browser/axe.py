"""axe-core (the copy axe-playwright-python ships) run on the page a test shows, with the WCAG 2.2
A and AA rules and Deque's best practices; any violation fails the test with a list a person reads.

    assert_accessible(page, "stats, dark, phone")
    assert_accessible(page, "results", include="#sudoku-results")
    assert_accessible(page, "board", rules=["label-content-name-mismatch"])  # an experimental rule too

Call it once the state to check is on screen: axe sees the DOM and the styles as they are then.
"""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

# The rule sets by their axe tags: every success criterion of WCAG 2.0, 2.1 and 2.2 at levels A
# and AA, and the best practices (landmarks, one main, headings in order ...). No rule is off.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]

_axe = Axe()

SETTLE = """() => Promise.race([
  Promise.all(document.getAnimations()
    .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => null))),
  new Promise((done) => setTimeout(done, 3000)),
])"""


def violations(
    page, *, include: str | None = None, exclude: list[str] | None = None, rules: list[str] | None = None
) -> list[dict]:
    """axe's violations on the page as it is now, within `include` (a selector) if given, leaving out
    the nodes matched by `exclude` (selectors: each one a false positive, said why where it is passed),
    running the `rules` named besides the tags' (axe's experimental ones are in no tag list)."""
    context: dict | None = None
    if include or exclude:
        context = {"include": [[include or "html"]], "exclude": [[selector] for selector in exclude or []]}
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    if rules:
        options["rules"] = {rule: {"enabled": True} for rule in rules}  # enabled by name runs whatever its tags
    # Colours caught halfway through a transition (a button just pressed, the theme changing) are
    # neither state's: axe looks once the page's finite animations and transitions have ended.
    page.evaluate(SETTLE)
    # The wrapper's own argument formatting writes a Python repr into the script; pass JSON instead.
    page.evaluate(_axe.axe_script)
    return page.evaluate("([context, options]) => axe.run(context || document, options)", [context, options])[
        "violations"
    ]


def report(found: list[dict]) -> str:
    """The violations as lines: the rule, its impact and help, then each node's target and summary."""
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}  [{violation['helpUrl']}]")
        for node in violation["nodes"]:
            target = " ".join(" >> ".join(part) if isinstance(part, list) else part for part in node["target"])
            lines.append(f"  - {target}")
            summary = (node.get("failureSummary") or "").strip()
            lines.extend(f"      {line.strip()}" for line in summary.splitlines() if line.strip())
    return "\n".join(lines)


def assert_accessible(
    page, label: str, *, include: str | None = None, exclude: list[str] | None = None, rules: list[str] | None = None
) -> None:
    """Fail, naming `label` (the page and state), if axe finds any violation on the page as it is now."""
    found = violations(page, include=include, exclude=exclude, rules=rules)
    assert not found, f"axe: {sum(len(v['nodes']) for v in found)} violation(s) on {label} ({page.url}):\n" + report(
        found
    )
