"""The account forms in Chromium, as a person meets them: each label above its input and the help
under it; after a refused sign-up, each error right under its own input (before the next field), in
the error colour, named by the input (aria-invalid, aria-describedby) and summed up in an alert at
the top whose links lead to the fields; a wrong password at the log-in refused in the same alert.
axe checks each of these states in light and dark, on a desktop and on a phone.

The screenshots docs/screenshots/signup-errors.png, signup-errors-dark-phone.png and login.png are
taken here."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.pages import LOOKS, screenshot, shoot

pytestmark = [pytest.mark.integration, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"
# site.css's --error on each side
ERROR_COLOUR = {"light": "rgb(176, 0, 32)", "dark": "rgb(255, 138, 128)"}


@pytest.fixture(params=LOOKS)
def look(request) -> str:
    return request.param


@pytest.fixture
def open_page(chromium, live_server, look):
    """`open_page(path)`: a page of this look at `path`, in a fresh context."""
    contexts = []

    def opened(path: str):
        context = chromium.new_context(**LOOKS[look])
        contexts.append(context)
        page = context.new_page()
        page.goto(live_server.url + path)
        return page

    yield opened
    for context in contexts:
        context.close()


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not on screen"
    return found


def below(upper, lower) -> bool:
    """`lower` starts at or under the bottom of `upper`, and in the same column."""
    a, b = box(upper), box(lower)
    return b["y"] >= a["y"] + a["height"] - 0.5 and abs(b["x"] - a["x"]) < 2


def refused_sign_up(page) -> None:
    """A sign-up with a name taken, an address that is not one and a password too short."""
    page.fill("#id_username", "ada")
    page.fill("#id_email", "ada@")
    page.fill("#id_password1", "abc")
    page.fill("#id_password2", "abc")
    with page.expect_navigation():
        page.get_by_role("button", name="Sign up").click()


def test_the_sign_up_form_has_labels_above_inputs_help_under_them_and_one_primary_button(open_page, look):
    page = open_page("/accounts/signup/")
    form = page.locator("main form")
    for name in ("username", "email", "password1", "password2"):
        label, field = form.locator(f"label[for=id_{name}]"), form.locator(f"#id_{name}")
        assert below(label, field), f"{name}: the label is not above the input"
    help_text = form.locator("#id_password1_helptext")
    assert below(form.locator("#id_password1"), help_text) and below(help_text, form.locator("label[for=id_password2]"))
    expect(form.locator("#id_password1")).to_have_accessible_description(re.compile("at least 8 characters"))
    # One primary button, and it is big enough for a thumb.
    primary = page.locator("main .button-primary")
    expect(primary).to_have_count(1)
    expect(primary).to_have_text("Sign up")
    assert box(primary)["height"] >= 44
    assert_accessible(page, f"sign-up, {look}")


@pytest.mark.screenshots
def test_a_refused_sign_up_puts_each_error_under_its_field_in_red_and_says_it(open_page, look):
    User.objects.create_user("ada", password=PASSWORD)
    page = open_page("/accounts/signup/")
    refused_sign_up(page)

    # The summary is an alert, read out as the page arrives, and links to each field at fault.
    summary = page.get_by_role("alert")
    expect(summary).to_have_count(1)
    expect(summary).to_contain_text("Please correct these fields")
    for name in ("username", "email", "password1"):
        expect(summary.locator(f"a[href='#id_{name}']")).to_have_count(1)

    order = ["username", "email", "password1", "password2"]
    theme = "dark" if look.startswith("dark") else "light"
    for name in ("username", "email", "password1"):
        field, error = page.locator(f"#id_{name}"), page.locator(f"#id_{name}_error")
        expect(error).to_be_visible()
        expect(field).to_have_attribute("aria-invalid", "true")
        # The input's description holds its error (before its help: sudokusite/forms.py), so a
        # screen reader says it with the field.
        expect(field).to_have_accessible_description(re.compile("^" + re.escape(error.locator("p").first.inner_text())))
        assert error.evaluate("e => getComputedStyle(e).color") == ERROR_COLOUR[theme], name
        assert below(field, error), f"{name}: the error is not under its input"
        following = order[order.index(name) + 1 :]
        if following:
            next_label = page.locator(f"label[for=id_{following[0]}]")
            assert below(error, next_label), f"{name}: the error is not before the next field"
    expect(page.locator("#id_username_error")).to_contain_text("already")
    expect(page.locator("#id_email_error")).to_contain_text("valid email")
    expect(page.locator("#id_password1_error")).to_contain_text("too short")
    # The help stays under the input, after the error; the field without an error has none.
    assert below(page.locator("#id_password1_error"), page.locator("#id_password1_helptext"))
    expect(page.locator("#id_password2")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_password2_error")).to_have_count(0)
    shoot(page, "signup-errors", look)
    assert_accessible(page, f"sign-up with errors, {look}")

    # A link of the summary takes the keyboard to its field.
    summary.locator("a[href='#id_password1']").click()
    expect(page.locator("#id_password1")).to_be_focused()


@pytest.mark.screenshots
def test_a_wrong_password_at_the_log_in_is_refused_in_an_alert(open_page, look):
    User.objects.create_user("ada", password=PASSWORD)
    page = open_page("/accounts/login/")
    if look == "light":
        screenshot(page, "login.png", full_page=True)
    assert_accessible(page, f"log-in, {look}")
    page.fill("#id_login", "ada")
    page.fill("#id_password", "not her password")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("not correct")
    theme = "dark" if look.startswith("dark") else "light"
    assert alert.locator("strong").first.evaluate("e => getComputedStyle(e).color") == ERROR_COLOUR[theme]
    # The alert comes before the fields, and the name typed is kept.
    assert below(alert, page.locator("label[for=id_login]"))
    expect(page.locator("#id_login")).to_have_value("ada")
    assert_accessible(page, f"log-in refused, {look}")


def test_the_password_reset_form_shows_its_error_under_its_field(open_page, look):
    page = open_page("/accounts/password/reset/")
    with page.expect_navigation():
        page.get_by_role("button", name="Send me the link").click()
    field, error = page.locator("#id_email"), page.locator("#id_email_error")
    expect(field).to_have_attribute("aria-invalid", "true")
    assert below(field, error)
    assert_accessible(page, f"password reset with an error, {look}")


def test_a_password_reset_from_the_mail_to_the_new_password_passes_axe_at_each_step(open_page, look):
    User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
    page = open_page("/accounts/password/reset/")
    page.fill("#id_email", "ada@example.com")
    with page.expect_navigation():
        page.get_by_role("button", name="Send me the link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your email")
    assert_accessible(page, f"password reset sent, {look}")

    (message,) = mail.outbox
    link = re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)
    page.goto(page.url.split("/accounts/")[0] + link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose a new password")
    page.fill("#id_password1", "a brand new password 2")
    page.fill("#id_password2", "a different one")
    with page.expect_navigation():
        page.get_by_role("button", name="Change password").click()
    field, error = page.locator("#id_password2"), page.locator("#id_password2_error")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(error).to_contain_text("same password")
    assert below(field, error)
    assert_accessible(page, f"new password refused, {look}")

    page.fill("#id_password1", "a brand new password 2")
    page.fill("#id_password2", "a brand new password 2")
    with page.expect_navigation():
        page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Password changed")
    assert_accessible(page, f"password changed, {look}")
