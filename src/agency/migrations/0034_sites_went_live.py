from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0033_mrr_covering_indexes")]

    initial = False

    operations: list[ops.Operation] = [
        ops.AddField(
            model_name="Website",
            name="went_live_at",
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
