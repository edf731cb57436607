"""The cheat bench's simulated days (python bench/cheat.py --days 14 --honest 50): bots against
honest players of known skill, every request through the site's real views at a simulated moment.

- world.py: the site, the honest players (bench/players.py's model), the warm-up, the scheduler;
- board.py: a board without the page (django.test.Client) and the timelines it writes;
- bots.py: issue 26's bots; farm.py (the archive farm, the patient newcomer) and hidden.py (time
  hidden from the clock, the replay copy): issue 43's; run.py: the days and what is printed.

Simplifications: the warm-up days are bulk rows without a record of play (bench/players.py); on
the measured days nobody takes a hint; a person's digits come in the engine's logical order, never
a wrong one, at least FASTEST_GAP s apart on average; every player plays a daily in one sitting,
the page visible throughout, ticking every 25 s rather than the board's 10 s (the same clock and
record: board.TICK_EVERY); each submit is followed up at once as the beat's sweep does a second
later (judged, the day's holds, the ratings; not its review), and the ratings also catch up every
simulated hour (every 5 minutes in production); email addresses are verified by the signal a click on the link sends; the bots see
each other's solves on the leaderboard, as they would.
"""
