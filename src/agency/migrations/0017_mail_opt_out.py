from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0016_catalogue_version")]

    initial = False

    operations = [
        ops.CreateModel(
            name="MailOptOut",
            fields=[
                (
                    "address_hash",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64),
                ),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "mail_opt_out",
                "app": "models",
                "pk_attr": "address_hash",
                "table_description": "A mailbox that asked for no more unsubscribable mail: the SHA-256 hex of its `mailbox`",
            },
            bases=["Model"],
        ),
        ops.AddField(
            model_name="OutboundMail",
            name="unsubscribe_token",
            field=fields.TextField(null=True, unique=False),
        ),
    ]
