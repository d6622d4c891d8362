from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0019_order_buyer_and_consent")]

    initial = False

    operations = [
        ops.CreateModel(
            name="Cancellation",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("subscription_id", fields.CharField(db_index=True, max_length=255)),
                ("order_id", fields.IntField(null=True)),
                ("user_id", fields.IntField(db_index=True)),
                ("email", fields.CharField(max_length=320)),
                ("plan_name", fields.CharField(max_length=200)),
                ("ends_at", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ("status", fields.CharField(default="confirmed", max_length=16)),
                ("requested_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "contracts_cancellation",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A subscription cancelled through the cancel page (set to end at its period end).",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="Withdrawal",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("order_id", fields.IntField(db_index=True)),
                ("user_id", fields.IntField(db_index=True)),
                ("email", fields.CharField(max_length=320)),
                ("order_number", fields.CharField(max_length=32)),
                ("plan_name", fields.CharField(max_length=200)),
                ("domain", fields.CharField(null=True, max_length=253)),
                ("ordered_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ("deadline", fields.DateField()),
                ("status", fields.CharField(default="received", max_length=16)),
                ("received_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "contracts_withdrawal",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A withdrawal by a consumer from an order, as received (the agency then reimburses).",
            },
            bases=["Model"],
        ),
        ops.AddField(
            model_name="Subscription",
            name="cancellation_confirmed_at",
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
