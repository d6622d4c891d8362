from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0005_billing")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Lead",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("source", fields.CharField(db_index=True, max_length=64)),
                ("email", fields.CharField(max_length=320)),
                ("name", fields.CharField(null=True, max_length=200)),
                ("domain", fields.CharField(null=True, max_length=253)),
                ("message", fields.TextField(null=True, unique=False)),
                ("page", fields.CharField(null=True, max_length=200)),
                (
                    "created_at",
                    fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True),
                ),
            ],
            options={"table": "insights_lead", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
    ]
