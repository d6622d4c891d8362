from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0012_seo_generations")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Notification",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("user_id", fields.IntField(db_index=True)),
                ("kind", fields.CharField(max_length=32)),
                ("title", fields.CharField(max_length=200)),
                ("body", fields.TextField(unique=False)),
                ("link", fields.CharField(null=True, max_length=500)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ("read_at", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={"table": "notifications_notification", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
    ]
