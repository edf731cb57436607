from django.urls import include, path, re_path, register_converter

from .converters import IsoDateConverter
from .views import (
    account,
    api,
    brought,
    export,
    health,
    home,
    leagues,
    learn,
    offline,
    pages,
    practice,
    printing,
    push,
    reminders,
    replays,
    results,
    review,
    share,
)

register_converter(IsoDateConverter, "isodate")

app_name = "puzzles"

urlpatterns = [
    path("", home.home, name="home"),
    path("ping/", health.ping, name="ping"),
    path("health/", health.health, name="health"),
    # The service worker, at the root so that its scope is the whole site, and the page it shows
    # for a page it cannot fetch (views/offline.py).
    path("sw.js", offline.service_worker, name="service-worker"),
    path("offline/", offline.offline_page, name="offline"),
    path("daily/<isodate:day>/<str:difficulty>/", pages.daily_page, name="daily"),
    path("daily/<isodate:day>/<str:difficulty>/results/", results.results, name="results"),
    # The player's own review of their solve, asked for again while it is being prepared.
    path("daily/<isodate:day>/<str:difficulty>/review/", review.review_fragment, name="review"),
    path("daily/<isodate:day>/<str:difficulty>/preview.png", share.preview_image, name="preview"),
    path("daily/<isodate:day>/<str:difficulty>/replay/<int:solve_id>/", replays.replay, name="replay"),
    # The board's JSON endpoints for one daily.
    path(
        "api/daily/<isodate:day>/<str:difficulty>/",
        include(
            [
                path("state/", api.state, name="api-state"),
                path("save/", api.save, name="api-save"),
                path("beat/", api.beat, name="api-beat"),
                path("submit/", api.submit, name="api-submit"),
                path("hint/", api.hint, name="api-hint"),
                path("check/", api.check, name="api-check"),
                path("replay/<int:solve_id>/", replays.api_replay, name="api-replay"),
            ]
        ),
    ),
    # Play any puzzle (views/brought.py): the paste box, the board at /play/?p=<givens>, its results and API.
    path("play/", brought.play, name="play"),
    re_path(r"^play/(?P<givens>[0-9]{81})/results/$", brought.results, name="play-results"),
    re_path(
        r"^api/play/(?P<givens>[0-9]{81})/",
        include(
            [
                path("state/", brought.state, name="api-play-state"),
                path("save/", brought.save, name="api-play-save"),
                path("beat/", brought.beat, name="api-play-beat"),
                path("submit/", brought.submit, name="api-play-submit"),
                path("hint/", brought.hint, name="api-play-hint"),
                path("check/", brought.check, name="api-play-check"),
            ]
        ),
    ),
    # The board's JSON endpoint for the player's settings, on every puzzle.
    path("api/settings/", api.player_settings, name="api-settings"),
    path("archive/", pages.archive_now, name="archive"),
    re_path(r"^archive/(?P<year>[0-9]{4})/(?P<month>[0-9]{2})/$", pages.archive_month, name="archive-month"),
    path("stats/", pages.stats, name="stats"),
    # The technique guide (views/learn.py).
    path("learn/", learn.learn, name="learn"),
    path("learn/<slug:name>/", learn.learn_technique, name="learn-technique"),
    path("how-to-play/", pages.how_to_play, name="howto"),
    # A day's puzzles laid out to print (views/printing.py): today's, or any past day's.
    path("print/", printing.print_day, name="print"),
    path("print/<isodate:day>/", printing.print_day, name="print-day"),
    # Which of today's dailies are out: what a home page still waiting for one asks (static/js/preparing.js).
    path("api/today/", pages.today_published, name="api-today"),
    # Practice for one technique (views/practice.py); the guide at /learn/<name>/ links to it.
    path("learn/<str:name>/practice/", practice.practice_page, name="learn-practice"),
    path("api/practice/<str:name>/ready/", practice.practice_ready, name="api-practice-ready"),
    path("api/practice/check/<int:position_id>/", practice.practice_check_answer, name="api-practice-check"),
    # The player's own data (views/account.py): the account page, a new name, deleting it all;
    # and the privacy page every footer links to.
    path("account/", account.account_page, name="account"),
    path("account/username/", account.account_username, name="account-username"),
    path("account/delete/", account.account_delete, name="account-delete"),
    path("privacy/", account.privacy, name="privacy"),
    # Leagues: the player's list, the invite link, and a league's board and changes (views/leagues.py).
    # Reminders (views/reminders.py): the player's settings, and the one-click unsubscribe a mail links to.
    path("account/reminders/", reminders.reminder_settings, name="reminders"),
    # Push reminders (views/push.py): this browser's subscription, added or removed.
    path("account/reminders/push/", push.push_subscribe, name="push-subscribe"),
    path("account/reminders/push/remove/", push.push_remove, name="push-remove"),
    path("reminders/stop/<str:token>/", reminders.reminders_stop, name="reminders-stop"),
    path("account/export/", export.account_export, name="account-export"),  # the player's data (views/export.py)
    path("leagues/", leagues.league_list, name="leagues"),
    path("leagues/join/<str:code>/", leagues.league_join, name="league-join"),
    path("leagues/<int:league_id>/", leagues.league_board, name="league"),
    path("leagues/<int:league_id>/<isodate:day>/", leagues.league_board, name="league-day"),
    path("leagues/<int:league_id>/leave/", leagues.league_leave, name="league-leave"),
    path("leagues/<int:league_id>/delete/", leagues.league_delete, name="league-delete"),
    path("leagues/<int:league_id>/invite/", leagues.league_new_link, name="league-new-link"),
    path("leagues/<int:league_id>/members/<int:user_id>/remove/", leagues.league_remove, name="league-remove"),
]
