from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0011_coaching_and_ratings")]

    operations = [
        migrations.AddField(
            model_name="solve",
            name="held",
            field=models.CharField(blank=True, default="", max_length=16, verbose_name="held because"),
        ),
        migrations.AddField(
            model_name="playevent",
            name="clock",
            field=models.FloatField(blank=True, null=True),
        ),
    ]
