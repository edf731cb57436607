"""The site's views, one module per role: pages, the board's JSON API, accounts, errors, health."""
