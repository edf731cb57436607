"""Link previews of a daily: the picture (puzzles/preview.py, views/share.py preview_image) and the
Open Graph and Twitter card tags that point to it (templates/puzzles/_meta.html)."""

from __future__ import annotations

import datetime
import io
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.template.loader import render_to_string
from django.test import RequestFactory
from PIL import Image

from puzzles.models import site_today
from puzzles.results import preview
from puzzles.views import share as share_views

from .factories import EASY_GIVENS, EASY_SOLUTION

DAY = datetime.date(2026, 11, 22)


def preview_url(daily) -> str:
    return f"/daily/{daily.date.isoformat()}/{daily.difficulty}/preview.png"


def inked_cells(png: bytes) -> set[int]:
    """The cells of the drawn grid with ink inside them (lines left out): where a digit is."""
    image = Image.open(io.BytesIO(png)).convert("L")
    inked = set()
    for cell in range(81):
        row, col = divmod(cell, 9)
        left = preview.MARGIN + col * preview.CELL_SIZE + 8
        top = preview.MARGIN + row * preview.CELL_SIZE + 8
        inside = image.crop((left, top, left + preview.CELL_SIZE - 16, top + preview.CELL_SIZE - 16))
        if inside.getextrema()[0] < 128:
            inked.add(cell)
    return inked


# --- the picture --------------------------------------------------------------------------------


def test_the_picture_is_a_1200_by_630_png():
    png = preview.draw_preview(EASY_GIVENS, "Easy", DAY)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (1200, 630)


def test_the_picture_draws_the_givens_and_leaves_every_other_cell_empty():
    png = preview.draw_preview(EASY_GIVENS, "Easy", DAY)
    assert inked_cells(png) == {i for i, d in enumerate(EASY_GIVENS) if d != "0"}
    assert len(inked_cells(preview.draw_preview(EASY_SOLUTION, "Easy", DAY))) == 81  # the test can see digits


def test_a_grid_that_is_not_81_cells_is_refused():
    with pytest.raises(ValueError, match="81 cells"):
        preview.draw_preview("123", "Easy", DAY)


# --- the picture's address ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_picture_is_served_as_png_cacheable_for_a_year(client, daily):
    response = client.get(preview_url(daily))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response.content == preview.draw_preview(EASY_GIVENS, "Easy", daily.date)
    control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert control == {"public", "max-age=31536000", "immutable"}
    assert response["ETag"].startswith('"preview-') and str(daily.puzzle_id) in response["ETag"]
    assert "Cookie" not in response.get("Vary", "")
    assert not response.cookies


@pytest.mark.django_db
def test_the_picture_is_drawn_once_and_then_read_from_the_cache(client, daily, monkeypatch):
    drawn = []
    draw = preview.draw_preview

    def counting(*args):
        drawn.append(args)
        return draw(*args)

    monkeypatch.setattr(share_views, "draw_preview", counting)
    first = client.get(preview_url(daily)).content
    second = client.get(preview_url(daily)).content
    assert first == second and len(drawn) == 1


@pytest.mark.django_db
def test_a_browser_holding_the_picture_gets_304(client, daily):
    etag = client.get(preview_url(daily))["ETag"]
    again = client.get(preview_url(daily), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert "immutable" in again["Cache-Control"]


@pytest.mark.django_db
def test_a_crawler_may_ask_for_the_headers_alone(client, daily):
    response = client.head(preview_url(daily))
    assert response.status_code == 200 and response["Content-Type"] == "image/png" and response.content == b""


@pytest.mark.django_db
def test_no_picture_of_a_puzzle_not_served(client, daily):
    tomorrow = site_today() + datetime.timedelta(days=1)
    assert client.get(f"/daily/{tomorrow.isoformat()}/easy/preview.png").status_code == 404
    assert client.get(f"/daily/{daily.date.isoformat()}/nonsense/preview.png").status_code == 404
    assert client.post(preview_url(daily)).status_code == 405


# --- the tags -----------------------------------------------------------------------------------


def meta_tags(html: str) -> dict[str, str]:
    return dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', html))


SITE = "https://sudoku.example"


@pytest.mark.django_db
def test_the_daily_pages_tags_describe_it_with_absolute_links_to_the_page_and_picture(client, daily, settings):
    settings.SITE_URL = SITE
    html = render_to_string("puzzles/_meta.html", share_views.preview_context(daily))
    tags = meta_tags(html)
    page = f"{SITE}/daily/{daily.date.isoformat()}/easy/"
    picture = f"{SITE}{preview_url(daily)}?v={daily.puzzle_id}"
    when = f"{daily.date.day} {daily.date:%B %Y}"
    assert tags["og:title"] == f"Daily Sudoku · Easy · {when}"
    assert tags["og:description"] == tags["description"]
    assert tags["og:description"] == f"The easy puzzle of {when}, 32 givens. Play it free in your browser."
    assert tags["og:url"] == page and f'<link rel="canonical" href="{page}">' in html
    assert tags["og:image"] == picture.replace("&", "&amp;")
    # X's card reads the title, description and image from the Open Graph tags when it has none of its own.
    assert not {"twitter:title", "twitter:description", "twitter:image"} & set(tags)
    assert (tags["og:image:width"], tags["og:image:height"], tags["og:image:type"]) == ("1200", "630", "image/png")
    assert tags["twitter:card"] == "summary_large_image"
    assert tags["og:image:alt"] == f"The easy Sudoku of {when}: a grid with its 32 givens."
    # The picture's address answers with the picture.
    response = client.get(picture.removeprefix(SITE))
    assert response.status_code == 200 and response["Content-Type"] == "image/png"


@pytest.mark.django_db
def test_the_tags_land_in_the_head_through_base_htmls_meta_block(daily, settings):
    settings.SITE_URL = SITE
    # What daily.html does once it fills the block: {% block meta %}{% include "puzzles/_meta.html" %}{% endblock %}
    page = engines["django"].from_string(
        '{% extends "base.html" %}{% block meta %}{% include "puzzles/_meta.html" %}{% endblock %}'
    )
    request = RequestFactory().get(f"/daily/{daily.date.isoformat()}/easy/")
    request.user = AnonymousUser()
    html = page.render(share_views.preview_context(daily), request)
    head = html[html.index("<head>") : html.index("</head>")]
    assert f'<meta property="og:image" content="{SITE}/daily/' in head
    assert '<meta name="twitter:card" content="summary_large_image">' in head


@pytest.mark.django_db
def test_the_cached_page_links_to_the_configured_address_whatever_host_the_first_requester_named(
    client, daily, settings
):
    settings.SITE_URL = SITE
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "sudoku.example", "other.example"]
    first = client.get(f"/daily/{daily.date.isoformat()}/easy/", HTTP_HOST="other.example").content.decode()
    later = client.get(f"/daily/{daily.date.isoformat()}/easy/", HTTP_HOST="sudoku.example").content.decode()
    for html in (first, later):
        tags = meta_tags(html)
        assert tags["og:url"] == f"{SITE}/daily/{daily.date.isoformat()}/easy/"
        assert tags["og:image"].startswith(f"{SITE}/daily/") and "other.example" not in html
