from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0003_catalogue")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Website",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("user_id", fields.IntField(db_index=True)),
                ("domain", fields.CharField(max_length=253)),
                ("page_speed", fields.IntField(null=True)),
                ("status", fields.CharField(default="building", max_length=16)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ("deleted_at", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={"table": "sites_website", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
    ]
