from django.urls import path, register_converter

from .views import play
from .converters import IsoDateConverter

register_converter(IsoDateConverter, "isodate")

app_name = "puzzles"

urlpatterns = [
    path("", play.home, name="home"),
    path("ping/", play.ping, name="ping"),
    path("daily/<isodate:day>/<str:difficulty>/", play.daily_page, name="daily"),
    path("api/daily/<isodate:day>/<str:difficulty>/state/", play.api_state, name="api-state"),
    path("api/daily/<isodate:day>/<str:difficulty>/save/", play.api_save, name="api-save"),
    path("api/daily/<isodate:day>/<str:difficulty>/beat/", play.api_beat, name="api-beat"),
    path("api/daily/<isodate:day>/<str:difficulty>/submit/", play.api_submit, name="api-submit"),
    path("accounts/signup/", play.signup, name="signup"),
]
