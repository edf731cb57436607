from django.urls import include, path, re_path, register_converter

from .views import health, hints, play, progress, results
from .converters import IsoDateConverter

register_converter(IsoDateConverter, "isodate")

app_name = "puzzles"

urlpatterns = [
    path("", play.home, name="home"),
    path("ping/", play.ping, name="ping"),
    path("health/", health.health, name="health"),
    path("daily/<isodate:day>/<str:difficulty>/", play.daily_page, name="daily"),
    # The board's JSON endpoints for one daily.
    path("api/daily/<isodate:day>/<str:difficulty>/", include([
        path("state/", play.api_state, name="api-state"),
        path("save/", play.api_save, name="api-save"),
        path("beat/", play.api_beat, name="api-beat"),
        path("submit/", play.api_submit, name="api-submit"),
        path("hint/", hints.api_hint, name="api-hint"),
    ])),
    path("daily/<isodate:day>/<str:difficulty>/results/", results.results, name="results"),
    path("accounts/signup/", play.signup, name="signup"),
    path("archive/", progress.archive_now, name="archive"),
    re_path(r"^archive/(?P<year>[0-9]{4})/(?P<month>[0-9]{2})/$", progress.archive_month, name="archive-month"),
    path("stats/", progress.stats, name="stats"),
]
