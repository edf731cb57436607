from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0011_coaching_and_ratings")]

    operations = [
        migrations.AddField(
            model_name="playevent",
            name="clock",
            field=models.FloatField(blank=True, null=True),
        ),
    ]
