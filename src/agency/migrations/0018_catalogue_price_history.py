from tortoise import fields, migrations
from tortoise.migrations import operations as ops

# The struck-through prices stored so far become the plans' recorded previous prices.
_KEEP_STRUCK_PRICES = (
    "INSERT INTO catalogue_price_change (plan, old_price, new_price, currency, source, changed_at) "
    "SELECT key, original_price, price, currency, 'migration', updated_at FROM catalogue_plan "
    "WHERE original_price IS NOT NULL AND original_price > price"
)


class Migration(migrations.Migration):
    dependencies = [("models", "0017_mail_opt_out")]

    initial = False

    operations = [
        ops.CreateModel(
            name="PriceChange",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("plan", fields.CharField(db_index=True, max_length=64)),
                ("old_price", fields.IntField()),
                ("new_price", fields.IntField()),
                ("currency", fields.CharField(default="EUR", max_length=3)),
                ("source", fields.CharField(max_length=16)),
                ("changed_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "catalogue_price_change",
                "app": "models",
                "pk_attr": "id",
                "table_description": "One change of a plan's price. A struck-through price is only ever the old price of the",
            },
            bases=["Model"],
        ),
        ops.RunSQL(_KEEP_STRUCK_PRICES, reverse_sql="DELETE FROM catalogue_price_change"),
        ops.RemoveField(model_name="Plan", name="original_price"),
        ops.RemoveField(model_name="Plan", name="save_percent"),
    ]
