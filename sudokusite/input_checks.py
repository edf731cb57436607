"""Input no layer chokes on: control characters refused at the door, refused bodies logged as warnings.

PostgreSQL takes no NUL in any text it is sent, so a NUL from a request that reached a query was a
500 there (a league's invite code, the admin's filters); SQLite took it. No address, form or write
of this site has a use for a control character, so one check, before the session, the CSRF check or
any view reads the request, answers 400 on every database:

- the path as decoded and the query string as sent: no C0 control (tab and newline too), DEL or C1
  control (U+0080-U+009F);
- a form's fields, urlencoded or multipart, names and values, and a JSON body: no control character
  but tab, newline and carriage return; in JSON also no unpaired surrogate, which json.loads makes
  from "\\ud800" and no database can encode. Forms cannot carry one (Django decodes them with
  replacement characters), and Django strips what is not printable from an upload's file name.

A cookie holding a control character is dropped, as if not sent: the session's key is read from
one and queried, and a 400 would lock that browser out until the cookie expired.

The checks read the raw query string and the JSON body's bytes, so nothing is parsed twice: a save
or a heartbeat pays a few microseconds. Reading a form or JSON body here first also means that a
body Django refuses (past DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields or files, a malformed
multipart, a client gone before its body arrived) is answered here: 413 or 400 with the site's
page, logged once as a warning without a traceback, where Django's own handler logs it as an error
with one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from django.core.exceptions import BadRequest, RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.log import log_response

from puzzles.views.errors import bad_request

# In an address, decoded: every C0 control, DEL and every C1 control.
ADDRESS_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")
# In a query string as sent: the same percent-encoded (a C1 control as UTF-8), or raw. A raw byte
# of 0x80-0x9F alone may be part of another character sent unencoded, so only C1's UTF-8 pair.
QUERY_CONTROLS = re.compile(r"%(?:[01][0-9a-f]|7f|c2%[89][0-9a-f])|[\x00-\x1f\x7f]|\xc2[\x80-\x9f]", re.IGNORECASE)
# In text a form or a JSON body carries: tab, newline and carriage return are text.
TEXT_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# In a JSON body's bytes. Most are printable ASCII with tab, newline and carriage return alone,
# which deleting those bytes tells in a microsecond; what is left is searched for controls raw, C1
# and surrogates as UTF-8 writes them (json.loads takes the latter). Then the escapes: \b and \f,
# \u0000 to \u001f but \t's, \n's and \r's, \u007f to \u009f, and surrogates, which come in pairs.
JSON_PLAIN = bytes(range(0x20, 0x7F)) + b"\t\n\r"
JSON_RAW_CONTROLS = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]|\xed[\xa0-\xbf]")
JSON_ESCAPES = re.compile(
    rb"\\(?:[bf]|u(?:00(?:0[0-8bcef]|1[0-9a-f]|7f|[89][0-9a-f])|d[89a-f][0-9a-f]{2}))", re.IGNORECASE
)
# In a cookie's value as sent (raw bytes past ASCII may be any character's).
COOKIE_CONTROLS = re.compile("[\x00-\x1f\x7f]")

# What reading a body may raise: Django's refusals, and OSError for a client gone before its body
# arrived (UnreadablePostError), which the CSRF check would otherwise have met first.
REFUSED_BODIES = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent, MultiPartParserError, BadRequest, OSError)

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
JSON_TYPE = "application/json"  # the API's one type (puzzles/views/decorators.py): no other is parsed as JSON

CONTROLS_WORDS = "The address or the form holds characters this site does not take. Check it, or go back and try again."
CONTROLS_API_WORDS = "The request holds control characters, which this site does not take."
TOO_LARGE_WORDS = "That request is too large."
UNREADABLE_WORDS = "That request could not be read. Go back and try again."


def _escaped(body: bytes, at: int) -> bool:
    """Whether the backslash at `at` is itself escaped: an odd number of backslashes before it."""
    before = at
    while before and body[before - 1] == ord("\\"):
        before -= 1
    return (at - before) % 2 == 1


def json_has_controls(body: bytes) -> bool:
    """Whether a JSON text holds a control character but tab, newline and carriage return, or an
    unpaired surrogate, raw or escaped; an escape after an escaped backslash ("\\\\u0000") is text."""
    unusual = body.translate(None, JSON_PLAIN)
    if unusual and JSON_RAW_CONTROLS.search(unusual):
        return True
    low_expected_at = -1  # where the low half of the last high surrogate must start
    for escape in JSON_ESCAPES.finditer(body):
        start = escape.start()
        if _escaped(body, start):
            continue
        code = int(escape[0][2:], 16) if len(escape[0]) == 6 else 0  # \b and \f are controls
        if 0xDC00 <= code <= 0xDFFF and start == low_expected_at:
            low_expected_at = -1
        elif 0xD800 <= code <= 0xDBFF and low_expected_at == -1:
            low_expected_at = escape.end()
        else:
            return True
    return low_expected_at != -1


def has_controls(request: HttpRequest) -> bool:
    """Whether the path, the query string or a form's or JSON body's text holds a control character.
    Reads the body of a form or JSON write: Django's refusals of it (RequestDataTooBig...) pass up."""
    if ADDRESS_CONTROLS.search(request.path_info) or QUERY_CONTROLS.search(request.META.get("QUERY_STRING", "")):
        return True
    if request.content_type == JSON_TYPE and request.method not in ("GET", "HEAD"):
        return json_has_controls(request.body)
    if request.method == "POST" and request.content_type in FORM_TYPES:
        return any(
            TEXT_CONTROLS.search(name) or any(TEXT_CONTROLS.search(value) for value in values)
            for name, values in request.POST.lists()
        )
    return False


def drop_cookies_with_controls(request: HttpRequest) -> None:
    """Forget any cookie whose value holds a control character, before the session reads its own."""
    cookies = request.COOKIES
    for name in [name for name, value in cookies.items() if COOKIE_CONTROLS.search(value)]:
        del cookies[name]


def refused_body(request: HttpRequest, exc: Exception) -> HttpResponse:
    """A body Django refused as it read it: 413 past the size, 400 otherwise, logged once as a
    warning where Django would log it (django.security.<refusal> for its SuspiciousOperations)."""
    too_large = isinstance(exc, RequestDataTooBig)
    response = bad_request(
        request, status=413 if too_large else 400, message=TOO_LARGE_WORDS if too_large else UNREADABLE_WORDS
    )
    suspicious = isinstance(exc, (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent))
    logger = logging.getLogger(f"django.security.{type(exc).__name__}" if suspicious else "django.request")
    log_response(
        "Refused %s: %s",
        request.path,
        str(exc) or type(exc).__name__,
        response=response,
        request=request,
        logger=logger,
        level="warning",
    )
    return response


class InputChecksMiddleware:
    """A 400 for control characters in a request, 413 or 400 for a body Django refuses (above)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        drop_cookies_with_controls(request)
        try:
            refused = has_controls(request)
        except REFUSED_BODIES as exc:
            return refused_body(request, exc)
        if refused:
            return bad_request(request, message=CONTROLS_WORDS, api_message=CONTROLS_API_WORDS)
        return self.get_response(request)
