from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0036_blog_markdown_editor")]

    initial = False

    # The job runners' heartbeats and the record of backup runs (`agency.core.operations`).
    operations = [
        ops.CreateModel(
            name="JobRunnerBeat",
            fields=[
                (
                    "worker_id",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=128),
                ),
                ("host", fields.CharField(max_length=255)),
                ("pid", fields.IntField()),
                ("role", fields.CharField(max_length=16)),
                ("started_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
                (
                    "seen_at",
                    fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False),
                ),
            ],
            options={
                "table": "job_runner",
                "app": "models",
                "pk_attr": "worker_id",
                "table_description": "One job runner's heartbeat: who it is and when it was last seen looping.",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="BackupRun",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                (
                    "finished_at",
                    fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False),
                ),
                ("ok", fields.BooleanField()),
                ("size", fields.BigIntField(null=True)),
                ("backend", fields.CharField(max_length=16)),
                ("seconds", fields.FloatField(default=0.0)),
            ],
            options={
                "table": "backup_run",
                "app": "models",
                "pk_attr": "id",
                "table_description": "One run of `agency db backup`: when it ended, whether it worked and how large the copy.",
            },
            bases=["Model"],
        ),
    ]
