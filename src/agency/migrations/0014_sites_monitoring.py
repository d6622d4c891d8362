from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0013_notifications")]

    initial = False

    operations = [
        ops.CreateModel(
            name="SpeedCheck",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                (
                    "website",
                    fields.ForeignKeyField(
                        "models.Website",
                        source_field="website_id",
                        db_constraint=True,
                        to_field="id",
                        related_name="checks",
                        on_delete=OnDelete.CASCADE,
                    ),
                ),
                ("test_id", fields.CharField(max_length=32)),
                ("kind", fields.CharField(default="manual", max_length=16)),
                ("status", fields.CharField(default="running", max_length=16)),
                ("score", fields.IntField(null=True)),
                ("previous_score", fields.IntField(null=True)),
                ("error", fields.TextField(null=True, unique=False)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                (
                    "finished_at",
                    fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
                ),
            ],
            options={
                "table": "sites_speed_check",
                "app": "models",
                "pk_attr": "id",
                "table_description": "One speed test of a website, run by the insights module (`test_id` is its id).",
            },
            bases=["Model"],
        ),
        ops.AddField(
            model_name="Website",
            name="checking_since",
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name="Website",
            name="monitored_at",
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name="Website",
            name="plan_key",
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddField(
            model_name="Website",
            name="status_changed_at",
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
