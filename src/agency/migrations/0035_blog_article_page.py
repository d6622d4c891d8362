from tortoise import migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0034_sites_went_live")]

    initial = False

    operations: list[ops.Operation] = []
