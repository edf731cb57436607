"""Settings for the Daily Sudoku site, all read from the environment.

The defaults let a fresh checkout run as it is (SQLite, no Redis); every variable is listed in
the README.
"""

from __future__ import annotations

import os
from email.utils import parseaddr
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

# The difficulties, easiest first, as the per-tier variables below are named. The engine rates by
# the same names (puzzles.engine.TIERS, held equal by tests/test_site.py); settings load before
# the app and so do not import it.
TIERS = ("easy", "medium", "hard", "expert", "extreme")


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_per_tier(prefix: str, defaults: tuple[float, ...]) -> dict[str, str]:
    """One value per difficulty, easiest first, from PREFIX_EASY ... PREFIX_EXTREME."""
    return {tier: env(f"{prefix}_{tier.upper()}", str(default)) for tier, default in zip(TIERS, defaults, strict=True)}


def env_band(name: str, default: tuple[int, int]) -> tuple[int, int]:
    """A score band from NAME=low-high (whole hundredths, low <= high), or the default."""
    text = env(name).strip()
    if not text:
        return default
    low, _, high = text.partition("-")
    if not (low.strip().isdecimal() and high.strip().isdecimal() and int(low) <= int(high)):
        raise ImproperlyConfigured(f"{name} must be low-high in hundredths of a score, e.g. 320-480, not {text!r}")
    return int(low), int(high)


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def email_settings(url: str) -> dict[str, Any]:
    """Django's EMAIL_* settings from console:// or smtp://user:password@host:port (smtp+tls://
    for STARTTLS, smtps:// for TLS from the first byte)."""
    parts = urlsplit(url)
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    ports = {"smtp": 25, "smtp+tls": 587, "smtps": 465}
    if parts.scheme not in ports:
        raise ImproperlyConfigured(f"EMAIL_URL must start console://, smtp://, smtp+tls:// or smtps://, not {url!r}")
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": parts.port or ports[parts.scheme],
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": parts.scheme == "smtp+tls",
        "EMAIL_USE_SSL": parts.scheme == "smtps",
        "EMAIL_TIMEOUT": 10,  # seconds: a mail server that stopped answering must not hold a request
    }


DEBUG = env_bool("DJANGO_DEBUG", True)
# The fallback key is only for development: with DEBUG off, SECRET_KEY must be set.
SECRET_KEY = env("SECRET_KEY") or ("dev-only-not-secret-change-me-in-production" if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY (a long random string) when DJANGO_DEBUG=0.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
# The site's own address, for the links that leave it (link previews, shared results): never the
# request's Host, which a page kept in a cache would otherwise hand to everyone after the first
# requester. By default `make run`'s address in development, and HTTPS on the first allowed host
# in production; set it when that is not the address players use.
SITE_URL = (
    env("SITE_URL")
    or (
        f"http://{env('HOST', '127.0.0.1')}:{env('PORT', '8000')}"
        if DEBUG
        else f"https://{(ALLOWED_HOSTS or ['localhost'])[0].lstrip('.')}"
    )
).rstrip("/")

# Production (DJANGO_DEBUG=0) behind a TLS-terminating proxy: HTTPS only, cookies sent only over
# HTTPS, HSTS. Each can be turned off by its variable (a plain-HTTP load test on loopback, say).
BEHIND_PROXY = env_bool("BEHIND_PROXY", not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = int(env("HSTS_SECONDS", "0" if DEBUG else str(365 * 24 * 3600)))
# Preload only when asked for: it asks browsers to build HTTPS-only into their releases for the
# whole domain, which takes months to undo, so the domain's owner decides. includeSubDomains
# stays on in production (Django's deploy check asks for it; unlike preload, the site's next
# answer undoes it), and preload needs it, so preload turns it on whatever its own variable says.
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", False)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", not DEBUG) or SECURE_HSTS_PRELOAD
# Without preload `check --deploy` warns (W021) on every run; preload being off is the decision above.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SECURE_REFERRER_POLICY = "same-origin"

# Content Security Policy (django-csp), in development too, so that the browser tests see what
# production would block: everything from this site alone, and nothing inline (no <script> or
# <style> block, style attribute or onclick= in any page, the admin's included). A script may
# still set element.style, which CSP allows; {{ x|json_script }} is data, never run. No nonces:
# the puzzle page is rendered once and served to everyone (puzzles/views/pages.py), and no
# page needs one. django-csp leaves out only DEBUG's own 404 and 500 pages, styled inline.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        # The service worker (/sw.js) and the web app manifest: this site's own, as default-src
        # would say, written out since both are fetched by the browser rather than a page.
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Permissions-Policy (sudokusite/permissions_policy.py): browser features the site never uses
# are off for every origin. Full screen and writing to the clipboard stay allowed to the site
# itself, for the planned share button; so does the system's share sheet (web-share), by its
# default, since Chromium on Linux does not know the name and says so in every page's console.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "accelerometer": [],
    "autoplay": [],
    "camera": [],
    "clipboard-read": [],
    "compute-pressure": [],
    "display-capture": [],
    "encrypted-media": [],
    "gamepad": [],
    "geolocation": [],
    "gyroscope": [],
    "hid": [],
    "identity-credentials-get": [],
    "idle-detection": [],
    "local-fonts": [],
    "magnetometer": [],
    "microphone": [],
    "midi": [],
    "otp-credentials": [],
    "payment": [],
    "picture-in-picture": [],
    "publickey-credentials-create": [],
    "publickey-credentials-get": [],
    "screen-wake-lock": [],
    "serial": [],
    "storage-access": [],
    "usb": [],
    "window-management": [],
    "xr-spatial-tracking": [],
    "fullscreen": ["self"],
    "clipboard-write": ["self"],
}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    # Which sessions are each account's (allauth's UserSession, made at every log-in): what
    # ends them all when an account is deleted, and the player's list of signed-in devices.
    "allauth.usersessions",
    "csp",  # django-csp: its system checks of CONTENT_SECURITY_POLICY
    "puzzles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # With SecurityMiddleware's own headers, on every answer: CONTENT_SECURITY_POLICY and
    # PERMISSIONS_POLICY below.
    "csp.middleware.CSPMiddleware",
    "sudokusite.permissions_policy.PermissionsPolicyMiddleware",
    # In production, static files straight from the web process, compressed and with hashed
    # names (WhiteNoise, after `collectstatic`); in development runserver serves them.
    *([] if DEBUG else ["whitenoise.middleware.WhiteNoiseMiddleware"]),
    # Control characters in the address, query or a form's or JSON body's text answer 400 before
    # anything reads them, and a body too large 413, logged as a warning (sudokusite/input_checks.py);
    # before the session, whose key a cookie gives.
    "sudokusite.input_checks.InputChecksMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "sudokusite.urls"
CSRF_FAILURE_VIEW = "puzzles.views.errors.csrf_failure"
WSGI_APPLICATION = "sudokusite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "puzzles.context_processors.site_urls",
                "puzzles.context_processors.guest",
            ],
        },
    },
]

# Django's templates, with a field's errors read out before its help (sudokusite/forms.py).
FORM_RENDERER = "sudokusite.forms.SiteRenderer"

DATABASES = {
    "default": dj_database_url.parse(
        # Connections are kept a minute and checked before a request reuses one, so a
        # restarted database costs no request an error once it is back.
        env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=60,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, with a health check that looks at the socket before it asks the server.
    DATABASES["default"]["ENGINE"] = "sudokusite.postgresql"
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite (make run's default) has one writer at a time, and by default a transaction that
    # reads first and writes later fails at once with "database is locked" when another wrote
    # meanwhile (waiting could deadlock). So: every transaction takes the write lock when it
    # begins (IMMEDIATE), a writer waits up to 20 s for the lock instead of failing, and WAL
    # lets pages read while a save writes (NORMAL sync is safe with WAL). Players' saves and
    # hints, the worker and beat all write at once (tests/test_sqlite_writes.py).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        **DATABASES["default"].get("OPTIONS", {}),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Accounts: django-allauth. A username and an optional email at sign-up, log-in by either, the
# password reset by email, and a new email replaces the old one once it is verified.
AUTHENTICATION_BACKENDS = [
    # allauth's backend, reading the logged-in user from a shared cache when there is one.
    "puzzles.auth.CachedModelBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_USERNAME_VALIDATORS = "puzzles.accounts.adapter.USERNAME_VALIDATORS"  # ASCII only: no look-alikes
ACCOUNT_EMAIL_VERIFICATION = "optional"
# Sign-up answers alike whether or not an email address is registered: a taken one is accepted,
# unverified, on the new account too (allauth's "strict"), and only its owner can verify it
# (an address verified on one account is never verified on another). The password reset
# answers alike already.
ACCOUNT_PREVENT_ENUMERATION = "strict"
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_SESSION_REMEMBER = True  # a log-in lasts SESSION_COOKIE_AGE (two weeks), as before
ACCOUNT_FORMS = {"change_password": "puzzles.accounts.adapter.ChangePasswordForm"}
ACCOUNT_ADAPTER = "puzzles.accounts.adapter.AccountAdapter"  # a short X-Forwarded-For is a 403, not a 500
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Daily Sudoku] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
# Each password check costs a third of a second of a core on purpose (PBKDF2), so one client
# sending log-ins, sign-ups or password changes as fast as it can would starve the server: each
# is limited per client address (per account too for failures), in Django's cache (Redis on
# CACHE_URL, shared by every process; otherwise each process counts alone). A wrong current
# password at a password change counts as a failed log-in (puzzles/accounts/adapter.py). Format:
# "amount/period/per" with period like 30s, m, 5m, h and per ip, key (the username or email;
# for failed log-ins, the username or email from one address) or user, comma-separated; empty
# turns that limit off.
ACCOUNT_RATE_LIMITS = {
    "login": env("RATE_LIMIT_LOGIN", "20/m/ip"),
    "login_failed": env("RATE_LIMIT_LOGIN_FAILED", "10/m/ip,5/5m/key"),
    "signup": env("RATE_LIMIT_SIGNUP", "10/m/ip"),
    "change_password": env("RATE_LIMIT_CHANGE_PASSWORD", "10/m/ip,5/m/user"),
    "reset_password": env("RATE_LIMIT_RESET_PASSWORD", "20/m/ip,5/m/key"),
}
# Failures for one account from every address only slow (puzzles/accounts/backoff.py): past this
# many in an hour (0: never), a browser that has not logged in to it waits its address's turn,
# LOGIN_BACKOFF_SECONDS at first, twice as long after each attempt, at most the MAX.
LOGIN_ACCOUNT_FAILURES_PER_HOUR = int(env("LOGIN_ACCOUNT_FAILURES_PER_HOUR", "20"))
LOGIN_BACKOFF_SECONDS = int(env("LOGIN_BACKOFF_SECONDS", "15"))
LOGIN_BACKOFF_MAX_SECONDS = int(env("LOGIN_BACKOFF_MAX_SECONDS", "300"))
# The client's address: REMOTE_ADDR, or behind the proxy (BEHIND_PROXY) the TRUSTED_PROXY_COUNT-th
# entry of X-Forwarded-For from the right, the one the outermost of our proxies appended. What a
# client writes into the header itself stays to the left of it and is never read.
ALLAUTH_TRUSTED_PROXY_COUNT = int(env("TRUSTED_PROXY_COUNT", "1")) if BEHIND_PROXY else 0
# The addresses (or networks) our proxies connect from: X-Forwarded-For is read only on a connection
# from one of them; a client that reached the web process some other way is its own address.
# gunicorn reads the same variable for its forwarded_allow_ips (sudokusite/gunicorn.py).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "127.0.0.1,::1")
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "puzzles:home"
LOGOUT_REDIRECT_URL = "puzzles:home"

LANGUAGE_CODE = "en-us"
# A puzzle's "date" is a calendar day in this zone, the same for every player.
TIME_ZONE = env("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# In production `collectstatic` writes compressed copies with content-hashed names, which
# WhiteNoise serves with far-future cache headers; in development files are served as they are.
# The board's ES modules name each other by their hashed names too (sudokusite/storage.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "sudokusite.storage.HashedStaticStorage"
    },
}

# WhiteNoise does not know the web app manifest's type (it would send application/octet-stream).
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}

REDIS_URL = env("REDIS_URL")

# Email (password resets, address verification): EMAIL_URL names the server; without it each
# mail is printed to the console. Sets EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER,
# EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL and EMAIL_TIMEOUT.
globals().update(email_settings(env("EMAIL_URL", "console://")))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Daily Sudoku <sudoku@localhost>")
# Where the leaderboard's rules ask players to report a result (a mailto link): this address, or
# by default the address the site's own mail comes from, which its admins read.
REPORT_EMAIL = env("REPORT_EMAIL") or parseaddr(DEFAULT_FROM_EMAIL)[1]
# No mail can be aimed at a stranger: a password reset (or an address change) for an address
# with no account sends nothing, where allauth's "strict" mails the address an "unknown account"
# note (the page answers alike either way); and every mail the site sends, whatever its kind,
# counts against its recipient's caps (puzzles/accounts/mailcap.py): past either, it is not sent.
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False
MAIL_CAP_PER_HOUR = int(env("MAIL_CAP_PER_HOUR", "3"))
MAIL_CAP_PER_DAY = int(env("MAIL_CAP_PER_DAY", "10"))

# Web Push reminders (puzzles/accounts/push.py): a VAPID key pair, which identifies the site to
# the browsers' push services. Without both keys push is not offered at all; `manage.py vapid_keys`
# prints a new pair. The public key is the base64url uncompressed point the browser subscribes
# with; the private key the base64url raw 32 bytes, or a PEM (py_vapid reads either).
VAPID_PUBLIC_KEY = env("VAPID_PUBLIC_KEY")
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY").replace("\\n", "\n")  # a PEM may come on one line, with \n
VAPID_SUBJECT = env("VAPID_SUBJECT") or f"mailto:{parseaddr(DEFAULT_FROM_EMAIL)[1]}"
PUSH_DEVICES_PER_PLAYER = int(env("PUSH_DEVICES_PER_PLAYER", "5"))
# The push services a subscription may name (a leading dot: that domain's hosts): the workers post
# to every stored endpoint, so an endpoint anywhere else (an address inside our network) is refused.
PUSH_SERVICE_HOSTS = env_list(
    "PUSH_SERVICE_HOSTS", "fcm.googleapis.com,updates.push.services.mozilla.com,.push.apple.com,.notify.windows.com"
)
PUSH_TTL_SECONDS = int(env("PUSH_TTL_SECONDS", str(4 * 3600)))

# Logging: everything to the console (the process manager keeps it), the web server, the worker
# and beat alike. Django's own default sends a 500's traceback nowhere when DEBUG is off; here it
# is logged at ERROR by django.request with the traceback.
LOG_LEVEL = env("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"},
    },
    "filters": {"quiet_sweeps": {"()": "sudokusite.logfilters.QuietSweeps"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["quiet_sweeps"]},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Replaces Django's default for "django", which logs only with DEBUG on (and mails admins).
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
    },
}

# The cache: Redis when CACHE_URL names one (shared by every process: sessions and users are read
# from it), otherwise this process's memory. Use a database number of its own, not the broker's:
# clearing the cache empties that whole database. The cache is never the only copy of anything;
# while Redis is away every read misses and the database answers (sudokusite/cache.py).
CACHE_URL = env("CACHE_URL")
SHARED_CACHE = bool(CACHE_URL)
if SHARED_CACHE:
    CACHES = {
        "default": {
            "BACKEND": "sudokusite.cache.ForgivingRedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    CACHES["local"] = {"BACKEND": "sudokusite.cache.KeptObjectsCache", "LOCATION": "kept"}
    # The session is read from the cache on every request and written to both; the database
    # copy survives a Redis restart.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    # Per process: fine for what never changes (a published daily); sessions stay in the
    # database, since one process could not tell the others about a logout.
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "local": {"BACKEND": "sudokusite.cache.KeptObjectsCache", "LOCATION": "kept"},
    }
# "local" is always this process's memory: for what depends on a puzzle alone and never
# changes (its rendered page), where a shared cache would only add a round trip. It keeps the
# values themselves, not pickled copies, so nothing read from it may be changed.

# Celery. Without REDIS_URL the broker is a folder on the local disk (kombu's filesystem
# transport), so `make run` has real workers and beat with nothing else installed.
VAR_DIR = Path(env("VAR_DIR", str(BASE_DIR / "var")))
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # The visibility timeout must outlast the longest task, or Redis hands a running task to a
    # second worker; socket timeouts keep a vanished Redis from hanging a web request.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "visibility_timeout": int(env("CELERY_VISIBILITY_TIMEOUT", "900")),
        "socket_timeout": 5,
        "socket_connect_timeout": 5,
    }
else:
    CELERY_BROKER_URL = "filesystem://"
    _broker_dir = VAR_DIR / "broker"
    # The filesystem transport needs its folder to exist before any process sends or reads.
    _broker_dir.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(VAR_DIR / "broker-processed"),
        "control_folder": str(VAR_DIR / "broker-control"),
        "store_processed": False,
    }
CELERY_BROKER_CONNECTION_TIMEOUT = 5
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A request that enqueues work gives up quickly instead of hanging when the broker is away.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}
# Worker and beat log through LOGGING above, like the web server, instead of their own set-up.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
# Acknowledge a task only after it ran, and give it back if its worker dies mid-task.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A generation task works to a budget well inside its soft limit; the limits catch the rest.
GENERATION_BUDGET_SECONDS = float(env("GENERATION_BUDGET_SECONDS", "60"))
CELERY_TASK_SOFT_TIME_LIMIT = int(env("CELERY_SOFT_TIME_LIMIT", "240"))
CELERY_TASK_TIME_LIMIT = int(env("CELERY_HARD_TIME_LIMIT", "300"))
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "puzzles.tasks.fill_pool": {"queue": "generation"},
    "puzzles.tasks.work_seed_batch": {"queue": "generation"},
    "puzzles.tasks.fill_practice": {"queue": "generation"},
}
CELERY_TIMEZONE = TIME_ZONE
JUDGE_SWEEP_SECONDS = float(env("JUDGE_SWEEP_SECONDS", "1"))
CELERY_BEAT_SCHEDULE = {
    "refill-pools": {"task": "puzzles.tasks.refill_pools", "schedule": float(env("REFILL_EVERY_SECONDS", "120"))},
    "publish-dailies": {
        "task": "puzzles.tasks.publish_dailies",
        "schedule": float(env("PUBLISH_EVERY_SECONDS", "600")),
    },
    # And on the stroke of midnight in the site's zone, in case publishing ahead fell behind.
    "publish-at-midnight": {"task": "puzzles.tasks.publish_dailies", "schedule": crontab(minute=0, hour=0)},
    # Once a day, at a quiet hour: what the site no longer needs goes, each kind after its period
    # (the retention settings below; puzzles/accounts/retention.py), in batches.
    "apply-retention": {"task": "puzzles.tasks.apply_retention", "schedule": crontab(minute=30, hour=3)},
    # The practice pool (puzzles/practice/pool.py): a short run that stops once every pool is full.
    "fill-practice": {"task": "puzzles.tasks.fill_practice", "schedule": float(env("PRACTICE_EVERY_SECONDS", "300"))},
    # Each solve queues its review and the ratings' catch-up; these sweeps pick up what a lost
    # message left (puzzles/coaching/services.py, puzzles/ratings/ledger.py).
    # Every solve's follow-up: its verdict (puzzles/fairplay/judge.py), review and ratings, from
    # this sweep of the solves being checked, every second by default (the results page asks
    # again after 0.8 and 2 s). A sweep not started within a few intervals (a worker was down) is
    # dropped: the next finds all that waits.
    "judge-waiting": {
        "task": "puzzles.tasks.judge_waiting",
        "schedule": JUDGE_SWEEP_SECONDS,
        "options": {"expires": max(5.0, 5 * JUDGE_SWEEP_SECONDS)},
    },
    "review-missing": {"task": "puzzles.tasks.review_missing", "schedule": float(env("REVIEW_SWEEP_SECONDS", "600"))},
    "rate-solves": {"task": "puzzles.tasks.rate_solves", "schedule": float(env("RATING_SWEEP_SECONDS", "300"))},
    # Each hour on the hour, the reminders whose local hour has come (puzzles/accounts/reminders.py);
    # a run missed or repeated is harmless: a player stays due all their day and is claimed once.
    "send-reminders": {"task": "puzzles.tasks.send_reminders", "schedule": crontab(minute=0)},
}

# The puzzle pipeline: how many unpublished puzzles each tier keeps ready, how far ahead the
# dailies are published.
PUZZLE_POOL_TARGETS = {tier: int(value) for tier, value in env_per_tier("POOL_TARGET", (20, 20, 20, 10, 5)).items()}
# Each tier's score band, in hundredths of the Sudoku Explainer scale (427 is 4.27), both ends
# included: dailies are taken from inside it and refills keep `target` puzzles inside it.
# SCORE_BAND_<TIER>=low-high overrides one. The defaults hold the middle two thirds to four
# fifths of each tier's generated puzzles (docs/algorithms.md has the distribution); hard's is
# wide enough for every family its refills aim at (a swordfish is 3.80, a unique rectangle 4.60).
SCORE_BAND_DEFAULTS = ((120, 230), (230, 310), (380, 470), (560, 740), (830, 900))
PUZZLE_SCORE_BANDS = {
    t: env_band(f"SCORE_BAND_{t.upper()}", b) for t, b in zip(TIERS, SCORE_BAND_DEFAULTS, strict=True)
}
PUBLISH_DAYS_AHEAD = int(env("PUBLISH_DAYS_AHEAD", "2"))
# Practice (puzzles/practice/): positions kept ready per technique, the time one fill may take,
# and the checks a player (and, apart, a client address) may make in a minute.
PRACTICE_POOL_SIZE = int(env("PRACTICE_POOL_SIZE", "10"))
PRACTICE_BUDGET_SECONDS = float(env("PRACTICE_BUDGET_SECONDS", "60"))
PRACTICE_CHECKS_PER_MINUTE = int(env("PRACTICE_CHECKS_PER_MINUTE", "20"))
# How many generation workers may share one admin seed batch (one task each, handed on).
SEED_BATCH_WORKERS = int(env("SEED_BATCH_WORKERS", "2"))

# Playing: the page sends a heartbeat every 10 s while visible and unpaused; every sign of life
# (an open, a tick, a close, a save, a submit) counts the silence before it, up to this many
# seconds: the longest silence counted, as long as a person may think at a board with the page
# paused or hidden (puzzles/play/attempts.py). A ranked solve in the day's top WALL_HOLD_TOP whose
# clock is under CLOCK_WALL_RATIO of its time from its first move is held (fairplay/judge.py).
HEARTBEAT_GAP_SECONDS = int(env("HEARTBEAT_GAP_SECONDS", "180"))
CLOCK_WALL_RATIO = float(env("CLOCK_WALL_RATIO", "0.75"))
WALL_HOLD_TOP = int(env("WALL_HOLD_TOP", "10"))
# While a player keeps entering, the board saves at most this often (the first entry after a quiet
# spell goes at once; each entry is kept on the device meanwhile, with its own time): fewer
# requests, against a second device seeing the newest entries this much later (docs/playing.md).
BOARD_SAVE_EVERY_SECONDS = max(1, int(env("BOARD_SAVE_EVERY_SECONDS", "10")))
# The record of play (puzzles/models/play.py): the moves one attempt may log; a write that would
# pass it is refused (413) and the board can send it again without its moves.
PLAY_MOVES_PER_ATTEMPT = int(env("PLAY_MOVES_PER_ATTEMPT", "5000"))
# Its events (record_of_play/events.py): in any minute (a player's debounced saves come at most
# every 0.6 s), and in all, the submit aside; a write past either is refused and changes nothing.
PLAY_EVENTS_PER_MINUTE = int(env("PLAY_EVENTS_PER_MINUTE", "120"))
PLAY_EVENTS_PER_ATTEMPT = int(env("PLAY_EVENTS_PER_ATTEMPT", "10000"))

# Leaderboards: a solve faster than its difficulty's floor (seconds) is recorded but flagged
# for an admin and kept off the leaderboard. Hints: how many one player may ask for in a minute.
LEADERBOARD_FLOOR_SECONDS = {
    tier: float(value) for tier, value in env_per_tier("LEADERBOARD_FLOOR", (20, 40, 60, 90, 120)).items()
}
# Fair play (puzzles/fairplay/): a solve by an account younger than this many hours, without a
# verified email, is not ranked; once a daily has DAY_FLOOR_MIN_SOLVES ranked solves by established
# players, a solve under DAY_FLOOR_FRACTION of the DAY_FLOOR_RANK-th fastest of them is held for
# review like one under the floor (an order statistic of the fastest: slow solves cannot raise it).
RANKED_ACCOUNT_MIN_HOURS = float(env("RANKED_ACCOUNT_MIN_HOURS", "6"))
DAY_FLOOR_FRACTION = float(env("DAY_FLOOR_FRACTION", "0.15"))
DAY_FLOOR_RANK = int(env("DAY_FLOOR_RANK", "3"))
DAY_FLOOR_MIN_SOLVES = int(env("DAY_FLOOR_MIN_SOLVES", "20"))
# A solve judged against its player (puzzles/fairplay/against.py, docs/ratings.md): a rating is
# provisional ("new" on the leaderboard) until it rests on ESTABLISHED_SOLVES rated solves of dailies
# made on their day, on ESTABLISHED_DAYS different days, at least as many as its archive solves, with
# a deviation of at most PROVISIONAL_DEVIATION; only established players make the day's floor. A
# solve (of the day or from the archive) whose time implies a performance more than HOLD_DEVIATIONS
# of its player's rating deviations, and at least HOLD_MIN_POINTS, above their rating is held, as
# is a provisional player's under FIELD_MARGIN of the day's fastest established time (1: a new
# player faster than every established one that day is held; under 1, a bot reading the
# leaderboard ranks first just under it).
ESTABLISHED_SOLVES = int(env("ESTABLISHED_SOLVES", "5"))
ESTABLISHED_DAYS = int(env("ESTABLISHED_DAYS", "5"))
PROVISIONAL_DEVIATION = float(env("PROVISIONAL_DEVIATION", "150"))
HOLD_DEVIATIONS = float(env("HOLD_DEVIATIONS", "2"))
HOLD_MIN_POINTS = float(env("HOLD_MIN_POINTS", "350"))
# ...counted from the lower of the rating now and the rating this many days before the solve.
HOLD_HISTORY_DAYS = int(env("HOLD_HISTORY_DAYS", "14"))
FIELD_MARGIN = float(env("FIELD_MARGIN", "1.0"))
# The day's rank 1 by a player whose first rated solve is under this many days old waits for review.
RANK_ONE_SEASON_DAYS = int(env("RANK_ONE_SEASON_DAYS", "30"))
# Ratings (puzzles/ratings/, docs/ratings.md): a solve in the reference time scores a draw between
# player and puzzle of equal rating, and the spread says how much faster a win is; a puzzle's first
# rating is its tier's prior; a solve that becomes rated within the rewind window is put in its place
# in solve order (the ratings after it are wound back and played again), later ones are applied as
# they come.
RATING_REFERENCE_SECONDS = float(env("RATING_REFERENCE_SECONDS", "600"))
RATING_SPREAD = float(env("RATING_SPREAD", "2"))
RATING_TIER_PRIORS = {
    tier: float(value) for tier, value in env_per_tier("RATING_PRIOR", (1100, 1300, 1500, 1700, 1900)).items()
}
RATING_PRIOR_DEVIATION = float(env("RATING_PRIOR_DEVIATION", "300"))
RATING_REWIND_HOURS = float(env("RATING_REWIND_HOURS", "72"))
# Hints and checks are limited apart (puzzles/play/hints.py); a hint's later stages are free.
# Showing mistakes checks as each digit is placed: those checks may be one of AUTO_CHECKS_PER_MINUTE.
HINTS_PER_MINUTE = int(env("HINTS_PER_MINUTE", "6"))
CHECKS_PER_MINUTE = int(env("CHECKS_PER_MINUTE", "6"))
AUTO_CHECKS_PER_MINUTE = int(env("AUTO_CHECKS_PER_MINUTE", "30"))

# Brought puzzles (puzzles/brought/checking.py): a puzzle the site has not checked before costs the
# engine up to BROUGHT_CHECK_SECONDS; one client address may have this many checked in an hour.
BROUGHT_CHECKS_PER_HOUR = int(env("BROUGHT_CHECKS_PER_HOUR", "30"))
BROUGHT_CHECK_SECONDS = float(env("BROUGHT_CHECK_SECONDS", "10"))

# Guests (puzzles/accounts/guests.py): a visitor's first move makes a guest player; one address may make
# this many in an hour.
GUEST_CREATIONS_PER_HOUR = int(env("GUEST_CREATIONS_PER_HOUR", "20"))

# Retention (puzzles/accounts/retention.py, docs/accounts.md): beat's daily run deletes, besides
# the expired sessions, a guest idle for this many days with its records (solves or none: its
# cookie lapsed long before), a reminder claim this many days after its day (never under 2), and
# the record of play of an attempt never solved and untouched for this many days.
GUEST_TTL_DAYS = int(env("GUEST_TTL_DAYS", "30"))
MAIL_LOG_DAYS = int(env("MAIL_LOG_DAYS", "30"))
ABANDONED_RECORD_DAYS = int(env("ABANDONED_RECORD_DAYS", "365"))

# A player's data (puzzles/accounts/: export.py, renaming.py, deletion.py; docs/accounts.md): a
# username changes at most once in this many days, tried at most this many times an hour from one
# address; the export and the deletion are asked at most this many times an hour from one address.
USERNAME_CHANGE_DAYS = int(env("USERNAME_CHANGE_DAYS", "30"))
USERNAME_TRIES_PER_HOUR = int(env("USERNAME_TRIES_PER_HOUR", "20"))
DELETE_TRIES_PER_HOUR = int(env("DELETE_TRIES_PER_HOUR", "10"))

# /health/ shows its details (database, broker, cache, pool levels) to staff and to a monitor
# that sends this token as "Authorization: Bearer <token>"; everyone else gets the status alone.
# Empty: details for staff only.
HEALTH_TOKEN = env("HEALTH_TOKEN")
