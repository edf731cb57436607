"""The admin in the site's colours (static/css/admin-theme.css): its header is the site's blue in the
light theme and the site's dark accent surface in the dark one, whether the system or the admin's
own toggle picks the theme. The README's screenshots of the admin are taken here
(docs/screenshots/admin.png, admin-dark.png). axe on the admin is in test_accessibility.py."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import Permission, User

from puzzles.models import DailyPuzzle, Puzzle, SeedBatch, site_today
from puzzles.pipeline import broker
from puzzles.pipeline.scores import band_text
from tests.browser.axe import assert_accessible, report, violations
from tests.browser.test_accessibility import log_in
from tests.browser.test_board import SHOTS
from tests.factories import make_puzzle

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
# The header's background, as the browser computes it: #2456c9 and #222b42 (admin-theme.css).
HEADER_BG = {"light": "rgb(36, 86, 201)", "dark": "rgb(34, 43, 66)"}
HEADER = "getComputedStyle(document.getElementById('header')).backgroundColor"
SCREENSHOT_PAGE = "/admin/puzzles/pool/dashboard/"


@pytest.fixture
def root(todays_easy, monkeypatch) -> User:
    """A superuser, and a dashboard with something to show: an unfinished batch, low pools, empty slots."""
    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))
    SeedBatch.objects.create(tier="easy", filler="row-by-row", requested=5)
    return User.objects.create_superuser("root", password="correct horse battery staple")


def admin_page(chromium, live_server, user: User | None, path: str, system: str, chosen: str | None = None):
    """The admin page at `path` for `user` (None: a visitor), on a desktop whose system asks for
    `system`, with the admin's own toggle left at `chosen` if given."""
    context = chromium.new_context(color_scheme=system, viewport=DESKTOP)
    if chosen:
        context.add_init_script(f"localStorage.setItem('theme', '{chosen}')")
    if user is not None:
        log_in(context, live_server.url, user)
    page = context.new_page()
    page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    return page


@pytest.mark.parametrize("system", ["light", "dark"])
@pytest.mark.parametrize("path", ["/admin/", SCREENSHOT_PAGE])
def test_the_admin_header_has_the_sites_colour_in_the_systems_theme(chromium, live_server, root, system, path):
    page = admin_page(chromium, live_server, root, path, system)
    assert page.evaluate(HEADER) == HEADER_BG[system]
    # The site's mark before the name, drawn (its file loaded under the Content Security Policy).
    assert page.evaluate("document.querySelector('#site-name img').naturalWidth") > 0
    if path == SCREENSHOT_PAGE:
        page.screenshot(path=str(SHOTS / f"admin{'-dark' if system == 'dark' else ''}.png"))
    page.context.close()


@pytest.mark.parametrize(("chosen", "system"), [("dark", "light"), ("light", "dark")])
def test_the_admin_header_follows_the_theme_chosen_by_the_admins_toggle(chromium, live_server, root, chosen, system):
    page = admin_page(chromium, live_server, root, "/admin/", system, chosen)
    assert page.evaluate("document.documentElement.dataset.theme") == chosen
    assert page.evaluate(HEADER) == HEADER_BG[chosen]
    # And the toggle changes it at once: Django's toggle goes auto -> light -> dark -> auto.
    page.locator("#header .theme-toggle").click()
    after = page.evaluate("document.documentElement.dataset.theme")
    assert after != chosen
    want = {"auto": system, "light": "light", "dark": "dark"}[after]
    assert page.evaluate(HEADER) == HEADER_BG[want]
    page.context.close()


@pytest.mark.parametrize("system", ["light", "dark"])
def test_every_admin_pages_text_keeps_its_contrast(chromium, live_server, root, system):
    # The dashboard passes every axe rule (test_accessibility.py); these pages show the rest of the
    # admin's colour pairs (lists, filters, forms, buttons, the log-in box), checked here for their
    # contrast. Their other findings are Django's own markup, not its colours.
    puzzle = make_puzzle()
    found = {}
    for path in (
        "/admin/",
        "/admin/puzzles/puzzle/",
        f"/admin/puzzles/puzzle/{puzzle.pk}/change/",
        "/admin/puzzles/puzzle/import/",
        f"/admin/auth/user/{root.pk}/change/",
        "/admin/login/",
    ):
        page = admin_page(chromium, live_server, None if path == "/admin/login/" else root, path, system)
        found[path] = [v for v in violations(page) if v["id"] == "color-contrast"]
        page.context.close()
    assert not any(found.values()), "\n".join(f"{path}\n{report(v)}" for path, v in found.items() if v)


# --- the dashboard's score bands and the scheduled dailies' scores ------------------------------

PHONE = {"width": 375, "height": 667}
# The bands the test sets, whatever the defaults, and per tier scores below, inside and above its
# band, in hundredths: a histogram with bars of several heights, filled inside the band and
# outlined outside.
BANDS = {"easy": (120, 230), "medium": (170, 340), "hard": (320, 470), "expert": (500, 720), "extreme": (750, 1000)}
SCORES = {
    "easy": (90, 130, 150, 150, 160, 210, 260),
    "medium": (180, 200, 250, 250, 250, 330, 420),
    "hard": (250, 330, 340, 399, 401, 427, 470, 520),
    "expert": (510, 600, 650, 650, 800),
    "extreme": (700, 760, 880, 950, 1000, 1100, 1200),
}
# The scheduled dailies: today's expert above its band, tomorrow's easy below, the rest inside.
SCHEDULED = {0: {"easy": 150, "medium": 250, "hard": 427, "expert": 1200, "extreme": 880}, 1: {"easy": 95, "hard": 350}}
# The relative luminance of an sRGB colour, and the contrast of two (WCAG 2's formulas).
LUMINANCE = re.compile(r"rgba?\((\d+), (\d+), (\d+)")


def contrast(one: str, two: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in LUMINANCE.match(colour).groups()]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    lighter, darker = sorted((luminance(one), luminance(two)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.fixture
def banded(db, monkeypatch, settings) -> User:
    """Puzzles of every tier with scores around their bands, dailies scheduled for today and
    tomorrow, and a member of staff who may view the pools."""
    settings.PUZZLE_SCORE_BANDS = BANDS
    monkeypatch.setattr(broker, "broker_status", lambda: (True, "The task broker (test) is reachable."))
    made = iter(range(1, 1000))

    def puzzle(tier: str, score: int, used: bool = False) -> Puzzle:
        # The dashboard reads tiers and scores only: any well-formed grid will do.
        return Puzzle.objects.create(
            givens=str(next(made)).zfill(81), solution="1" * 81, tier=tier, score=score, hardest="naked-single",
            clues=30, filler="imported", used=used,
        )  # fmt: skip

    for tier, scores in SCORES.items():
        for score in scores:
            puzzle(tier, score)
    for days, slots in SCHEDULED.items():
        for tier, score in slots.items():
            day = site_today() + datetime.timedelta(days=days)
            DailyPuzzle.objects.create(date=day, difficulty=tier, puzzle=puzzle(tier, score, used=True))
    staff = User.objects.create_user("staff", password="correct horse battery staple", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["view_pool", "view_puzzle"]))
    return staff


@pytest.mark.parametrize("system", ["light", "dark"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_dashboard_draws_each_tiers_band_and_the_scheduled_scores_readably(
    chromium, live_server, banded, system, size
):
    viewport = DESKTOP if size == "desktop" else PHONE
    context = chromium.new_context(color_scheme=system, viewport=viewport)
    log_in(context, live_server.url, banded)
    page = context.new_page()
    page.goto(live_server.url + SCREENSHOT_PAGE)
    page.wait_for_load_state("networkidle")
    assert_accessible(page, f"the pool dashboard, {system}, {size}")

    # Each tier's band and counts read as text, in the row of its tier.
    bands = page.locator(".band-table tbody tr")
    assert bands.count() == len(SCORES)
    for row, (tier, scores) in zip(bands.all(), SCORES.items()):
        low, high = BANDS[tier]
        cells = [text.strip() for text in row.locator("th, td").all_inner_texts()]
        below, above = sum(s < low for s in scores), sum(s > high for s in scores)
        assert cells[:5] == [
            tier.capitalize(),
            band_text((low, high)),
            str(len(scores) - below - above),
            str(below),
            str(above),
        ]

    # The bars: every non-empty bucket drawn, visible and of some height, in proportion to its count;
    # the filled ones (inside the band) stand out from the page (3:1, WCAG's figure for graphics).
    bars = page.evaluate(
        """() => [...document.querySelectorAll('.score-histogram li')].map((li) => {
          const bar = li.querySelector('.bar'), box = bar.getBoundingClientRect();
          let under = li, bg = 'rgba(0, 0, 0, 0)';
          while (under && (bg = getComputedStyle(under).backgroundColor) === 'rgba(0, 0, 0, 0)') under = under.parentElement;
          return {place: li.className.replace('bucket-', ''), height: +bar.dataset.height, drawn: box.height,
                  width: box.width, fill: getComputedStyle(bar).backgroundColor,
                  border: getComputedStyle(bar).borderTopColor, page: bg,
                  said: li.querySelector('.visually-hidden').textContent};
        })"""
    )
    assert bars and any(bar["height"] == 10 for bar in bars)
    for bar in bars:
        count = int(bar["said"].split(": ")[1].split(",")[0])
        assert (bar["height"] > 0) == (count > 0), bar
        if bar["height"]:
            assert bar["drawn"] >= 2 and bar["width"] >= 2, bar
            edge = bar["fill"] if bar["place"] != "outside" else bar["border"]
            assert contrast(edge, bar["page"]) >= 3, bar
    tallest = max(bar["drawn"] for bar in bars)
    assert all(bar["drawn"] == pytest.approx(tallest * bar["height"] / 10, abs=1.5) for bar in bars)
    histogram = page.locator(".band-table tbody tr").first.locator(".score-histogram")
    assert histogram.get_attribute("aria-label") == f"Scores of the {len(SCORES['easy'])} available easy puzzles"
    assert "1.50 to 1.74: 3, inside the band" in histogram.locator(".visually-hidden").all_text_contents()

    # The scheduled scores: one row a day, each flag in words and visible.
    scheduled = page.locator(".scheduled-table tbody tr")
    assert scheduled.count() == 2
    today = [text.strip() for text in scheduled.first.locator("td").all_inner_texts()]
    assert today[0] == "1.50" and today[2] == "4.27" and today[4] == "8.80"
    assert re.fullmatch(r"12\.00\s+▲ ABOVE ITS BAND", today[3]), today
    tomorrow = [text.strip() for text in scheduled.nth(1).locator("td").all_inner_texts()]
    assert re.fullmatch(r"0\.95\s+▼ BELOW ITS BAND", tomorrow[0]) and tomorrow[1] == "not yet", tomorrow
    for flag in page.locator(".scheduled-table .flag-low").all():
        assert flag.is_visible()

    width = viewport["width"]
    if (size, system) in {("desktop", "light"), ("phone", "dark")}:
        left, top = (
            page.locator("#content").bounding_box()["x"],
            page.locator("#scheduled-heading").bounding_box()["y"] - 8,
        )
        end = page.locator(".band-table").bounding_box()
        clip = {"x": left, "y": top, "width": width - left, "height": end["y"] + end["height"] + 8 - top}
        page.screenshot(path=str(SHOTS / f"admin-score-bands-{size}.png"), clip=clip, full_page=True)

    # Nothing is wider than the screen (checked after the shot, which shows what was wrong): no
    # sideways scrolling, and the new tables inside the screen (the pools' eight columns scroll in
    # their own box on a phone).
    wide = page.evaluate(
        """(width) => [...document.querySelectorAll('body *:not(.table-scroll *)')]
          .filter((el) => el.getBoundingClientRect().right > width + 0.5)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)
          .slice(0, 12)""",
        width,
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width, wide
    for table in (".scheduled-table", ".band-table"):
        scroller = page.locator(f".table-scroll:has({table})")
        assert scroller.evaluate("(box) => box.scrollWidth <= box.clientWidth"), table

    context.close()
