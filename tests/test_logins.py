"""Lock-outs keyed to the guesser (puzzles/accounts/backoff.py, adapter.py): wrong passwords shut
the guesser's own address, for one account and for all; an account guessed from everywhere is only
slowed, by a wait no one else can lengthen, and a browser that logged in to it before not at all."""

from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client

from puzzles.accounts.backoff import KNOWN_DEVICE, turn_wait

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough password 1"
OWNER, STRANGER, ELSEWHERE = "192.0.2.10", "203.0.113.7", "192.0.2.99"
# Early in an hour, so that a test's failures fall in one hour's count.
START = datetime(2026, 11, 26, 12, 0, 5, tzinfo=UTC)


def log_in(client: Client, login: str, password: str = PASSWORD, address: str = OWNER):
    return client.post("/accounts/login/", {"login": login, "password": password}, REMOTE_ADDR=address)


def admin_log_in(client: Client, password: str = PASSWORD, address: str = OWNER):
    data = {"username": "root", "password": password}
    return client.post("/admin/login/?next=/admin/", data, REMOTE_ADDR=address)


def guesser(n: int) -> str:
    return f"198.51.{n // 200}.{n % 200 + 1}"


def guess_from_everywhere(login: str, addresses: int = 20) -> None:
    """One wrong password for `login` from each of `addresses` addresses: the hour's ceiling."""
    for n in range(addresses):
        log_in(Client(), login, "wrong", guesser(n))


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


# --- per address, and per account from an address ---------------------------------------------


def test_a_strangers_wrong_passwords_never_stop_the_owner_logging_in_from_their_own_address():
    User.objects.create_user("ada", "ada@example.com", password=PASSWORD)
    answers = [log_in(Client(), "ada", "wrong", STRANGER).status_code for _ in range(8)]
    assert answers == [200] * 5 + [429] * 3
    assert log_in(Client(), "ada").status_code == 302
    assert log_in(Client(), "ada@example.com").status_code == 302


def test_a_strangers_wrong_passwords_never_stop_staff_logging_in_from_their_own_address():
    User.objects.create_superuser("root", password=PASSWORD)
    answers = [admin_log_in(Client(), "wrong", STRANGER).status_code for _ in range(4)]
    answers += [log_in(Client(), "root", "wrong", STRANGER).status_code for _ in range(4)]
    assert answers == [200] * 5 + [429] * 3
    assert admin_log_in(Client())["Location"] == "/admin/"
    assert log_in(Client(), "root").status_code == 302


def test_wrong_passwords_from_one_address_shut_that_address_for_the_account_even_to_the_right_one():
    User.objects.create_user("ada", password=PASSWORD)
    for _ in range(5):
        assert log_in(Client(), "ada", "wrong", STRANGER).status_code == 200
    refused = log_in(Client(), "ada", address=STRANGER)
    assert refused.status_code == 429 and b"Too many failed login attempts" in refused.content


# --- the account's ceiling from every address --------------------------------------------------


def test_an_account_guessed_from_everywhere_makes_a_fresh_address_wait_then_lets_the_owner_in(clock):
    User.objects.create_user("ada", password=PASSWORD)
    guess_from_everywhere("ada")
    refused = log_in(Client(), "ada", address=ELSEWHERE)
    assert refused.status_code == 429 and refused["Retry-After"] == "15"
    assert b"Too many attempts on this account; try again in 15 seconds." in refused.content
    clock.shift(14)
    refused = log_in(Client(), "ada", address=ELSEWHERE)
    assert refused.status_code == 429 and b"try again in 1 second." in refused.content
    clock.shift(1)
    assert log_in(Client(), "ada", address=ELSEWHERE).status_code == 302


def test_an_attacker_guessing_from_many_addresses_cannot_keep_the_owner_out(clock):
    ada = User.objects.create_user("ada", password=PASSWORD)
    phone = Client()
    assert log_in(phone, "ada").status_code == 302  # the owner's phone, known to the account since
    phone.post("/accounts/logout/")
    addresses = [guesser(n) for n in range(8)]
    guessed = refused = 0
    owners_wait = None
    for second in range(40):
        for address in addresses:  # every address guesses every second, whatever it is told
            answer = log_in(Client(), "ada", f"guess {second}", address).status_code
            guessed, refused = guessed + (answer == 200), refused + (answer == 429)
        if second == 5:
            # Mid-attack: the phone on a network it never used logs in at once...
            assert log_in(phone, "ada", address=ELSEWHERE).status_code == 302
            phone.post("/accounts/logout/")
            # ...and a new browser at the owner's own address is told a wait no guessing lengthens.
            owners_wait = log_in(Client(), "ada")
            assert owners_wait.status_code == 429
        if second == 5 + int(owners_wait["Retry-After"] if owners_wait else 99):
            assert log_in(Client(), "ada").status_code == 302
            break
        clock.shift(1)
    else:
        pytest.fail("the owner was kept out")
    # The attack was slowed: past the hour's 20 failures, each address had one turn in 15 s.
    assert guessed <= 20 + len(addresses) and refused > 4 * guessed
    ada.refresh_from_db()
    assert ada.check_password(PASSWORD)


def test_staff_guessed_from_everywhere_get_in_at_the_admin_after_the_wait_or_at_once_from_their_browser(clock):
    User.objects.create_superuser("root", password=PASSWORD)
    desk = Client()
    assert admin_log_in(desk)["Location"] == "/admin/"
    desk.post("/admin/logout/")
    guess_from_everywhere("root")
    assert admin_log_in(desk, address=ELSEWHERE)["Location"] == "/admin/"
    refused = admin_log_in(Client())
    assert refused.status_code == 429 and refused["Retry-After"] == "15"
    clock.shift(15)
    assert admin_log_in(Client())["Location"] == "/admin/"


def test_a_known_browser_of_another_account_or_a_forged_cookie_waits_like_any_other(clock):
    ada = User.objects.create_user("ada", password=PASSWORD)
    User.objects.create_user("eve", password=PASSWORD)
    eve = Client()
    assert log_in(eve, "eve", address=STRANGER).status_code == 302  # known to eve's account, not to ada's
    eve.post("/accounts/logout/")
    guess_from_everywhere("ada")
    assert log_in(eve, "ada", "guess", STRANGER).status_code == 429
    forger = Client()
    forger.cookies[KNOWN_DEVICE] = str(ada.pk)
    assert log_in(forger, "ada", "guess", ELSEWHERE).status_code == 429


def test_an_owner_logged_in_changes_their_password_while_the_account_is_guessed(clock):
    ada = User.objects.create_user("ada", password=PASSWORD)
    player = Client()
    player.force_login(ada)
    guess_from_everywhere("ada")
    new = "a brand new password 2"
    changed = player.post("/accounts/password/change/", {"oldpassword": PASSWORD, "password1": new, "password2": new})
    assert changed.status_code == 302


def test_with_no_ceiling_an_account_guessed_from_everywhere_is_not_slowed(clock, settings):
    settings.LOGIN_ACCOUNT_FAILURES_PER_HOUR = 0
    User.objects.create_user("ada", password=PASSWORD)
    guess_from_everywhere("ada", addresses=30)
    assert log_in(Client(), "ada", address=ELSEWHERE).status_code == 302


def test_an_addresses_wait_doubles_with_its_own_attempts_up_to_the_maximum_and_is_its_own(settings):
    settings.LOGIN_BACKOFF_SECONDS, settings.LOGIN_BACKOFF_MAX_SECONDS = 15, 60
    now = START.timestamp()
    waits = []
    for _ in range(4):
        waits.append(wait := turn_wait("ada", STRANGER, now))
        assert turn_wait("ada", STRANGER, now + wait) == 0  # its turn, taken
        now += wait
    assert waits == [15, 30, 60, 60]
    assert turn_wait("ada", STRANGER, now + 59) == 1
    assert turn_wait("ada", OWNER, now) == 15  # another address's turn is its own
    assert turn_wait("ada", "2001:db8:1:2::1", now) == 15
    assert turn_wait("ada", "2001:db8:1:2::2", now + 1) == 14  # the same /64: the same client
