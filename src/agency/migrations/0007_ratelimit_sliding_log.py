# Edited by hand: old fixed-window counters are dropped first (they mean nothing to the sliding
# log, and the new NOT NULL columns have no database default).
from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0006_leads")]

    initial = False

    operations = [
        ops.RunSQL("DELETE FROM rate_counter", reverse_sql="DELETE FROM rate_counter"),
        ops.AddField(
            model_name="RateCounter",
            name="times",
            field=fields.TextField(default="", unique=False),
        ),
        ops.AddField(
            model_name="RateCounter",
            name="updated_at",
            field=fields.BigIntField(default=0, db_index=True),
        ),
        ops.RemoveField(model_name="RateCounter", name="count"),
        ops.RemoveField(model_name="RateCounter", name="window_start"),
    ]
