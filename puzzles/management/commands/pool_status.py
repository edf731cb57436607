from __future__ import annotations

from django.core.management.base import BaseCommand

from puzzles.staff import dashboard


class Command(BaseCommand):
    help = "A table per tier: puzzles available, target, made in the last hour, time to make, days scheduled."

    def handle(self, *args, **options) -> None:
        rows = dashboard.pool_rows()
        header = ("tier", "available", "target", "last hour", "avg make s", "days ahead")
        widths = (9, 10, 7, 10, 11, 11)
        self.stdout.write("  ".join(h.ljust(w) for h, w in zip(header, widths)))
        for row in rows:
            cells = (
                row.tier,
                str(row.available),
                str(row.target),
                str(row.made_last_hour),
                f"{row.average_seconds:.2f}" if row.average_seconds is not None else "-",
                str(row.days_ahead),
            )
            self.stdout.write("  ".join(c.ljust(w) for c, w in zip(cells, widths)))
