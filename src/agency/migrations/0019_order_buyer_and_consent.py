from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0018_catalogue_price_history")]

    initial = False

    operations = [
        ops.AddField(
            model_name="Customer",
            name="buyer_type",
            field=fields.CharField(null=True, max_length=16),
        ),
        ops.AddField(
            model_name="CheckoutSession",
            name="buyer_type",
            field=fields.CharField(default="consumer", max_length=16),
        ),
        ops.AddField(
            model_name="CheckoutSession",
            name="early_start_consent_version",
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddField(
            model_name="CheckoutSession",
            name="early_start_consent_at",
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name="CheckoutSession",
            name="terms_version",
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddField(
            model_name="Order",
            name="buyer_type",
            field=fields.CharField(default="consumer", max_length=16),
        ),
        ops.AddField(
            model_name="Order",
            name="early_start_consent_version",
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddField(
            model_name="Order",
            name="early_start_consent_at",
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name="Order",
            name="terms_version",
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddField(
            model_name="Order",
            name="confirmation_mail_id",
            field=fields.IntField(null=True),
        ),
    ]
