"""Fault injection: the site and the puzzle pipeline while Redis, a worker or the database goes
away, and clients that replay or race their saves. Prints every check with its figures, a table
at the end, and exits 1 if any check fails.

    python bench/faults [--players 8] [--redis-outage 4] [--only d,a,c,b]

(or `python -m bench.faults` from the repository's root). Everything runs on services the bench
starts and stops itself, never the shared ones (services.py): a PostgreSQL cluster of its own and
a redis-server of its own on a free port (the broker on database 0, the cache on database 1).
gunicorn serves the site with production settings, less HTTPS (target.py). The faults, a module
each:

  d  replay.py        a client replays an old save, and two saves race from the same version
  a  redis_outage.py  Redis stopped for a few seconds and started again while players save and solve
  c  database.py      the database restarted (`pg_ctl restart`) while players save, then once more
                      while idle
  b  worker.py        a worker killed mid-batch: its pool process (SIGKILL), then a whole worker
                      (SIGKILL of its process group), each followed by a new worker that must
                      finish the batch exactly
"""
