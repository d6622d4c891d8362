from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0035_blog_article_page")]

    initial = False

    operations: list[ops.Operation] = [
        ops.AddField(
            model_name="Article",
            name="body_format",
            field=fields.CharField(default="html", max_length=16),
        ),
        ops.AddField(
            model_name="Article",
            name="source",
            field=fields.TextField(default="", unique=False),
        ),
    ]
