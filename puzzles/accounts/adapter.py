"""Accounts (django-allauth does the work): which usernames may be taken (none that reads as a
taken one: usernames.py), a password change whose wrong current password counts as a failed
log-in, what signing up or logging in does to a guest (guests.py), and its mails: capped per
address (mailcap.py), with every link on settings.SITE_URL."""

from __future__ import annotations

import functools
import ipaddress
import logging
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from allauth.account.adapter import DefaultAccountAdapter, get_adapter
from allauth.account.forms import ChangePasswordForm as AllauthChangePasswordForm
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ImproperlyConfigured, PermissionDenied, ValidationError
from django.core.validators import RegexValidator
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from ..results.share import SITE_NAME, site_url
from . import backoff, mailcap
from .guests import GUEST_PREFIX, guest_convert, guest_merge, keep_guest, kept_guest, remember_guest_boards
from .ratelimits import address_group
from .usernames import lookalike_taken

log = logging.getLogger(__name__)

# ASCII letters, digits and . _ - only: no letter of another script can pass for a Latin one
# ("admin" spelled with a Cyrillic a, U+0430), nor a fullwidth or accented look-alike, and no "@", so a username
# never reads as someone's email address at the log-in. A rule, not Unicode's whole confusables
# table: the look-alikes ASCII leaves (I, l and 1; 0 and O; rn and m) are a small one
# (usernames.py). Names taken before it still log in (the rule is checked at sign-up).
USERNAME_VALIDATORS = [
    RegexValidator(
        r"\A[A-Za-z0-9._-]+\Z",
        "Use only the letters a-z and A-Z, digits and . _ - in a username.",
        code="invalid_username",
    ),
    # Guests are named guest-<random> (guests.py): no sign-up may take a name that reads as one.
    RegexValidator(
        rf"(?i)\A{GUEST_PREFIX}",
        f"Usernames starting with “{GUEST_PREFIX}” are kept for guests.",
        code="guest_username",
        inverse_match=True,
    ),
]


@functools.cache
def _networks(addresses: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(address, strict=False) for address in addresses)


def login_of(credentials: dict[str, str]) -> str:
    """The username or email a log-in names, as allauth's failure limits key it (email first)."""
    return credentials.get("email", credentials.get("username", "")).lower()


def from_trusted_proxy(address: str) -> bool:
    """Whether a connection's address is one of settings.TRUSTED_PROXIES (addresses or networks)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


class ChangePasswordForm(AllauthChangePasswordForm):
    """allauth's, where the current password is checked as a log-in would be: a wrong one counts
    toward the log-in failure limits of the address and the account, and once they are reached
    it is refused before the password is hashed (allauth's `reauthenticate`)."""

    def clean_oldpassword(self) -> str:
        password = self.cleaned_data.get("oldpassword", "")
        adapter = get_adapter()
        if not adapter.reauthenticate(self.user, password):  # raises when the limit is reached
            raise adapter.validation_error("enter_current_password")
        return password


@dataclass(frozen=True)
class MailSite:
    """What allauth's mail templates read of `current_site` (its name, its domain): the configured
    site, where allauth, without django.contrib.sites, would take the request's Host."""

    name: str
    domain: str


class AccountAdapter(DefaultAccountAdapter):
    """allauth's adapter, where an address that cannot be told is a refusal, not a server error,
    and logging in or out says nothing: the header already shows who is playing, and a board
    the player returns to would otherwise open with "Successfully signed in as …"."""

    QUIET = frozenset({"account/messages/logged_in.txt", "account/messages/logged_out.txt"})

    def add_message(
        self, request: HttpRequest, level: int, message_template: str | None = None, *args, **kwargs
    ) -> None:
        if message_template in self.QUIET:
            return
        super().add_message(request, level, message_template, *args, **kwargs)

    def get_client_ip(self, request: HttpRequest) -> str:
        # X-Forwarded-For is the proxy's word only on a connection from the proxy: a client that
        # reached the web process directly could write any address into it.
        remote = request.META.get("REMOTE_ADDR", "")
        if settings.ALLAUTH_TRUSTED_PROXY_COUNT and not from_trusted_proxy(remote):
            return remote
        # allauth raises ImproperlyConfigured when X-Forwarded-For holds fewer entries than
        # TRUSTED_PROXY_COUNT: a request that did not come through every trusted proxy, or a
        # count set too high. Either way the rate limits cannot know who is asking.
        try:
            return super().get_client_ip(request)
        except ImproperlyConfigured:
            log.error("X-Forwarded-For has fewer entries than TRUSTED_PROXY_COUNT; request refused")
            raise PermissionDenied("This request did not come through the site's proxy.") from None

    # Failed log-ins (accounts/backoff.py): allauth's per-"key" limit counts a username or email
    # from one client address, so a stranger's guesses never shut the owner's door; across every
    # address the account is only slowed.

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials) -> str:
        # Not allauth's, which begins with the site's domain from the request's Host: a guesser
        # rotating the Host through ALLOWED_HOSTS would have had a fresh count for each name.
        return f"{login_of(credentials)}@{address_group(self.get_client_ip(request))}"

    def pre_authenticate(self, request: HttpRequest, **credentials) -> None:
        backoff.check(request, login_of(credentials), self.get_client_ip(request))
        super().pre_authenticate(request, **credentials)

    def authentication_failed(self, request: HttpRequest, **credentials) -> None:
        super().authentication_failed(request, **credentials)
        backoff.count_failure(login_of(credentials))

    # Mail. allauth builds its links from the request (its Host, which any client writes, within
    # ALLOWED_HOSTS): here each is on SITE_URL, and every message goes through the cap.

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        # Every mail is greeted and signed with the site's name and its address (the site's own
        # account/email/base_message.txt), whatever the caller put in the context.
        site = MailSite(name=SITE_NAME, domain=urlsplit(settings.SITE_URL).netloc)
        signed = {"current_site": site, "site_name": SITE_NAME, "site_url": settings.SITE_URL}
        context = {"request": self.request, "email": email, **context, **signed}
        mailcap.send(self.render_mail(template_prefix, email, context), kind=template_prefix)

    def get_reset_password_from_key_url(self, key: str) -> str:
        # allauth's path, with its opaque key standing for the uid and the token.
        path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
        return site_url(path.replace("UID-KEY", quote(key)))

    def get_email_confirmation_url(self, request: HttpRequest, emailconfirmation) -> str:
        return site_url(reverse("account_confirm_email", args=[emailconfirmation.key]))

    def send_account_already_exists_mail(self, email: str) -> None:
        context = {
            "signup_url": site_url(reverse("account_signup")),
            "password_reset_url": site_url(reverse("account_reset_password")),
        }
        self.send_mail("account/email/account_already_exists", email, context)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow)
        # Taken names are checked by spelling above (case aside) and by look here (usernames.py).
        if not shallow and (taken := lookalike_taken(username)) is not None:
            raise ValidationError(
                f"That username reads too like “{taken}”, which is taken. Choose another.", code="username_lookalike"
            )
        return username

    # A guest reaches the sign-up and log-in pages as a visitor would (views/accounts.py), with
    # the guest kept on the request (guests.keep_guest).

    def new_user(self, request: HttpRequest):
        # Signing up from a guest session turns the guest's own row into the account: every
        # attempt, solve and hint keeps its key, so nothing is copied and nothing counted twice.
        guest = kept_guest(request)
        return guest if guest is not None else super().new_user(request)

    def save_user(self, request: HttpRequest, user, form, commit: bool = True):
        guest = kept_guest(request)
        converting = guest is not None and user.pk == guest.pk
        if converting:
            # The account is as old as its sign-up, not as the guest: the ranking rules count a
            # new account's hours from date_joined, which a guest made ahead would otherwise cover.
            user.date_joined = timezone.now()
        user = super().save_user(request, user, form, commit=commit)
        if commit and converting:
            guest_convert(user)
        return user

    def login(self, request: HttpRequest, user) -> None:
        # Logging in to another account: the guest's session is flushed by the log-in, so the
        # guest was taken from it before (kept_guest), and is merged into the account after.
        guest = kept_guest(request)
        super().login(request, user)
        if guest is not None and guest.pk == user.pk:  # signed up: the guest is the account
            remember_guest_boards(request, guest.pk)
        elif guest is not None:
            merged = guest_merge(guest, user)
            keep_guest(request, None)
            remember_guest_boards(request, guest.pk, merged.dailies)
            if merged.message:
                messages.info(request, merged.message)
