from django.contrib import admin
from django.urls import include, path

from puzzles.views import accounts, offline

urlpatterns = [
    path("admin/", admin.site.urls),
    # django-allauth: sign-up, log-in, log-out, password change and reset, email. Log-in and
    # password change are its views, answering 429 when too many wrong passwords are refused;
    # log-in and sign-up take a guest in as a visitor (puzzles/views/accounts.py).
    path("accounts/login/", accounts.login, name="account_login"),
    path("accounts/signup/", accounts.signup, name="account_signup"),
    path("accounts/password/change/", accounts.password_change, name="account_change_password"),
    # A guest is sent to the sign-up from the pages that would give it a password or an email.
    path("accounts/password/set/", accounts.password_set, name="account_set_password"),
    path("accounts/email/", accounts.email, name="account_email"),
    # Its answer also clears the browser's HTTP cache of the site (puzzles/views/offline.py).
    path("accounts/logout/", offline.logout, name="account_logout"),
    path("accounts/", include("allauth.urls")),
    path("", include("puzzles.urls")),
]

# JSON for the board's API, the friendly pages elsewhere.
handler400 = "puzzles.views.errors.bad_request"
handler404 = "puzzles.views.errors.not_found"
handler500 = "puzzles.views.errors.server_error"
