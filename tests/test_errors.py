"""Error answers (views/errors.py): JSON for the board's API, the site's plain pages elsewhere,
never a traceback."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from puzzles.views import api, pages

from .factories import post, url

pytestmark = pytest.mark.django_db


def test_a_failure_on_our_side_is_a_json_500_for_the_board_and_a_plain_page_elsewhere(daily, monkeypatch):
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.create_user("ada", password="x"))

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(api, "attempt_save", broken)
    monkeypatch.setattr(pages, "attempt_state", broken)
    response = post(client, url(daily, "save"), {"version": 0, "digits": "0" * 81})
    assert response.status_code == 500 and "try again" in response.json()["error"]
    page = client.get(url(daily))
    assert (
        page.status_code == 500
        and "went away" not in page.content.decode()
        and "Traceback" not in page.content.decode()
    )
