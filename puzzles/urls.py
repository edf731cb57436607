from django.urls import path, register_converter

from . import views
from .converters import IsoDateConverter

register_converter(IsoDateConverter, "isodate")

app_name = "puzzles"

urlpatterns = [
    path("", views.home, name="home"),
    path("ping/", views.ping, name="ping"),
    path("daily/<isodate:day>/<str:difficulty>/", views.daily_page, name="daily"),
    path("api/daily/<isodate:day>/<str:difficulty>/state/", views.api_state, name="api-state"),
    path("api/daily/<isodate:day>/<str:difficulty>/save/", views.api_save, name="api-save"),
    path("api/daily/<isodate:day>/<str:difficulty>/beat/", views.api_beat, name="api-beat"),
    path("api/daily/<isodate:day>/<str:difficulty>/submit/", views.api_submit, name="api-submit"),
    path("accounts/signup/", views.signup, name="signup"),
]
