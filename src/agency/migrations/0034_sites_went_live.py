from tortoise import migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0033_mrr_covering_indexes")]

    initial = False

    operations: list[ops.Operation] = []
