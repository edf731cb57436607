from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # login, logout, password_change (Django's own views and forms); signup is ours.
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("puzzles.urls")),
]

# JSON for the board's API, the friendly pages elsewhere.
handler404 = "puzzles.views.errors.not_found"
handler500 = "puzzles.views.errors.server_error"
