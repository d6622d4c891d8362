from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0014_sites_monitoring")]

    initial = False

    operations = [
        ops.CreateModel(
            name="SupportRequest",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("user_id", fields.IntField(null=True, db_index=True)),
                ("name", fields.CharField(max_length=200)),
                ("email", fields.CharField(max_length=320)),
                ("subject", fields.CharField(max_length=200)),
                ("message", fields.TextField(unique=False)),
                ("website_id", fields.IntField(null=True)),
                ("website_domain", fields.CharField(null=True, max_length=253)),
                ("status", fields.CharField(default="open", db_index=True, max_length=16)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ("updated_at", fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={"table": "support_request", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
        ops.CreateModel(
            name="SupportReply",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                (
                    "request",
                    fields.ForeignKeyField(
                        "models.SupportRequest",
                        source_field="request_id",
                        db_constraint=True,
                        to_field="id",
                        related_name="replies",
                        on_delete=OnDelete.CASCADE,
                    ),
                ),
                ("body", fields.TextField(unique=False)),
                ("admin_id", fields.IntField(null=True)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={"table": "support_reply", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
    ]
