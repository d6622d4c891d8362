from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0015_support")]

    initial = False

    operations = [
        ops.CreateModel(
            name="CatalogueVersion",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("version", fields.IntField(default=0)),
            ],
            options={
                "table": "catalogue_version",
                "app": "models",
                "pk_attr": "id",
                "table_description": "One row (id 1) counting the catalogue's changes. Each server process keeps the public",
            },
            bases=["Model"],
        ),
    ]
