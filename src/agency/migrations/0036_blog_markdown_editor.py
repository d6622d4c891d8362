from tortoise import migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0035_blog_article_page")]

    initial = False

    operations: list[ops.Operation] = []
