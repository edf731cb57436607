from django.urls import path, re_path, register_converter

from .views import health, hints, play, progress, results
from .converters import IsoDateConverter

register_converter(IsoDateConverter, "isodate")

app_name = "puzzles"

urlpatterns = [
    path("", play.home, name="home"),
    path("ping/", play.ping, name="ping"),
    path("health/", health.health, name="health"),
    path("daily/<isodate:day>/<str:difficulty>/", play.daily_page, name="daily"),
    path("api/daily/<isodate:day>/<str:difficulty>/state/", play.api_state, name="api-state"),
    path("api/daily/<isodate:day>/<str:difficulty>/save/", play.api_save, name="api-save"),
    path("api/daily/<isodate:day>/<str:difficulty>/beat/", play.api_beat, name="api-beat"),
    path("api/daily/<isodate:day>/<str:difficulty>/submit/", play.api_submit, name="api-submit"),
    path("api/daily/<isodate:day>/<str:difficulty>/hint/", hints.api_hint, name="api-hint"),
    path("daily/<isodate:day>/<str:difficulty>/results/", results.results, name="results"),
    path("accounts/signup/", play.signup, name="signup"),
    path("archive/", progress.archive_now, name="archive"),
    re_path(r"^archive/(?P<year>[0-9]{4})/(?P<month>[0-9]{2})/$", progress.archive_month, name="archive-month"),
    path("stats/", progress.stats, name="stats"),
]
