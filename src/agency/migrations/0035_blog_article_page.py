from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0034_sites_went_live")]

    initial = False

    operations: list[ops.Operation] = [
        ops.AddField(
            model_name="Article",
            name="language",
            field=fields.CharField(default="en", max_length=8),
        ),
        ops.AddField(
            model_name="Article",
            name="call_to_action",
            field=fields.CharField(default="speed_test", max_length=16),
        ),
        ops.AddField(
            model_name="Article",
            name="cover_key",
            field=fields.CharField(null=True, max_length=80),
        ),
        ops.AddField(
            model_name="Article",
            name="cover_width",
            field=fields.IntField(null=True),
        ),
        ops.AddField(
            model_name="Article",
            name="cover_height",
            field=fields.IntField(null=True),
        ),
        ops.AddField(
            model_name="Article",
            name="cover_alt",
            field=fields.CharField(default="", max_length=200),
        ),
        ops.AddField(
            model_name="Profile",
            name="bio",
            field=fields.CharField(default="", max_length=280),
        ),
    ]
