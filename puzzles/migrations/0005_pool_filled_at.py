from django.db import migrations, models
from django.db.models import Count
from django.utils import timezone


def mark_running_pools(apps, schema_editor):
    """On a site already running, a pool that has published a daily of its own tier, or holds its
    target now, has been filled before: a substitute may stand in when it runs dry, as until now."""
    Pool = apps.get_model("puzzles", "Pool")
    Puzzle = apps.get_model("puzzles", "Puzzle")
    DailyPuzzle = apps.get_model("puzzles", "DailyPuzzle")
    published = set(DailyPuzzle.objects.filter(substitute=False).values_list("difficulty", flat=True).distinct())
    available = dict(Puzzle.objects.filter(used=False).order_by().values_list("tier").annotate(n=Count("id")))
    now = timezone.now()
    for pool in Pool.objects.all():
        if pool.tier in published or available.get(pool.tier, 0) >= pool.target:
            pool.filled_at = now
            pool.save(update_fields=["filled_at"])


class Migration(migrations.Migration):

    dependencies = [
        ("puzzles", "0004_solve_flags_and_hints"),
    ]

    operations = [
        migrations.AddField(
            model_name="pool",
            name="filled_at",
            field=models.DateTimeField(blank=True, editable=False, null=True, verbose_name="first filled"),
        ),
        migrations.RunPython(mark_running_pools, migrations.RunPython.noop),
    ]
