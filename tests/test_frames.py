"""views/frames.py: a frame filled in draws each value as the template's {{ value }} would."""

from __future__ import annotations

import datetime

import pytest
from django.template import Context, Template
from django.utils.safestring import mark_safe

from puzzles.views.frames import cut, drawn, filled, mark

VALUES = [
    "ada",
    "<b>Tom & 'Jerry'</b>",
    mark_safe("<em>kept</em>"),
    0,
    -3,
    1234567,
    True,
    None,
    2.5,
    datetime.date(2026, 11, 27),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
@pytest.mark.parametrize("grouping", [False, True])
def test_a_value_is_drawn_as_the_template_draws_it(value, grouping, settings):
    settings.USE_THOUSAND_SEPARATOR = grouping
    assert drawn(value) == Template("{{ value }}").render(Context({"value": value}))


def test_a_frame_is_filled_at_its_marks():
    frame = cut(f"<p>{mark('name')} solved in {mark('time')}.</p>")
    assert filled(frame, {"name": "<ada>", "time": "4:05"}) == "<p>&lt;ada&gt; solved in 4:05.</p>"
