"""gunicorn's settings for the web process: `gunicorn -c python:sudokusite.gunicorn sudokusite.wsgi`.

Sync workers, as many as gunicorn's documentation suggests to start from, (2 x cores) + 1, so a
worker waiting on PostgreSQL or Redis leaves the cores to the others ("How Many Workers?" in
gunicorn's design notes). WEB_CONCURRENCY, which platforms such as Heroku set, overrides it.
"""

import os

workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * (os.cpu_count() or 1) + 1)
bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"

