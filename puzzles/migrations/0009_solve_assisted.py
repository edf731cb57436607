"""Solve.hinted is Solve.assisted in Python (it means a hint or a check); the column keeps its name."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0008_record_of_play_and_leagues"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(model_name="solve", old_name="hinted", new_name="assisted"),
                migrations.AlterField(
                    model_name="solve",
                    name="assisted",
                    field=models.BooleanField(db_column="hinted", default=False, verbose_name="with hints or checks"),
                ),
            ],
            database_operations=[],
        ),
    ]
