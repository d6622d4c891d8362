from tortoise import migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0036_blog_markdown_editor")]

    initial = False

    # Filled in by the operations work (job runners' heartbeats, recorded backup runs).
    operations: list[ops.Operation] = []
