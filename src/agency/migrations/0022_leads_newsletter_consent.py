from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0021_contracts_cancellation_kind")]

    initial = False

    operations = [
        ops.CreateModel(
            name="NewsletterConsent",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("email", fields.CharField(db_index=True, max_length=320)),
                ("form", fields.CharField(max_length=64)),
                ("wording_version", fields.CharField(max_length=64)),
                ("outcome", fields.CharField(max_length=16)),
                (
                    "created_at",
                    fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True),
                ),
            ],
            options={
                "table": "leads_newsletter_consent",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A ticked newsletter box that reached the server: who (the e-mail), where (the form or",
            },
            bases=["Model"],
        ),
    ]
