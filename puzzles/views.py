from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """Today's puzzles; until the pipeline publishes dailies, a page that says so."""
    return render(request, "puzzles/home.html")
