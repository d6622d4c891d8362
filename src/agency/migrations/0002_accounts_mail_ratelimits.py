# Edited by hand: Profile.id is the user id (generated=False), which the writer omits.
from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("models", "0001_init")]

    initial = False

    operations = [
        ops.CreateModel(
            name="OutboundMail",
            fields=[
                (
                    "id",
                    fields.BigIntField(
                        generated=True, primary_key=True, unique=True, db_index=True
                    ),
                ),
                ("to", fields.CharField(max_length=320)),
                ("subject", fields.CharField(max_length=255)),
                ("text", fields.TextField(unique=False)),
                ("html", fields.TextField(null=True, unique=False)),
                ("status", fields.CharField(default="queued", db_index=True, max_length=16)),
                ("last_error", fields.TextField(null=True, unique=False)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ("sent_at", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={"table": "outbound_mail", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
        ops.CreateModel(
            name="Profile",
            fields=[
                (
                    "id",
                    fields.IntField(primary_key=True, generated=False, unique=True, db_index=True),
                ),
                ("first_name", fields.CharField(default="", max_length=100)),
                ("last_name", fields.CharField(default="", max_length=100)),
                ("avatar_url", fields.CharField(null=True, max_length=2048)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "auth_profile",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A user's public details, keyed by the user's id (as the spec's profiles table is).",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="RateCounter",
            fields=[
                (
                    "key",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=255),
                ),
                ("window_start", fields.BigIntField()),
                ("count", fields.IntField()),
            ],
            options={"table": "rate_counter", "app": "models", "pk_attr": "key"},
            bases=["Model"],
        ),
        ops.CreateModel(
            name="User",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("email", fields.CharField(unique=True, max_length=254)),
                ("password_hash", fields.CharField(max_length=255)),
                ("role", fields.CharField(default="user", max_length=16)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={"table": "auth_user", "app": "models", "pk_attr": "id"},
            bases=["Model"],
        ),
        ops.CreateModel(
            name="PasswordReset",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                (
                    "user",
                    fields.ForeignKeyField(
                        "models.User",
                        source_field="user_id",
                        db_constraint=True,
                        to_field="id",
                        related_name="password_resets",
                        on_delete=OnDelete.CASCADE,
                    ),
                ),
                ("token_hash", fields.CharField(unique=True, max_length=64)),
                ("expires_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ("used_at", fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "auth_password_reset",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A single-use reset link. Only the SHA-256 of its token is stored.",
            },
            bases=["Model"],
        ),
        ops.CreateModel(
            name="Session",
            fields=[
                (
                    "id",
                    fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64),
                ),
                (
                    "user",
                    fields.ForeignKeyField(
                        "models.User",
                        source_field="user_id",
                        db_constraint=True,
                        to_field="id",
                        related_name="sessions",
                        on_delete=OnDelete.CASCADE,
                    ),
                ),
                ("remember", fields.BooleanField(default=False)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ("last_seen_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
                (
                    "expires_at",
                    fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False),
                ),
                ("user_agent", fields.CharField(default="", max_length=255)),
                ("ip", fields.CharField(default="", max_length=64)),
            ],
            options={
                "table": "auth_session",
                "app": "models",
                "pk_attr": "id",
                "table_description": "A signed-in browser. The cookie holds a random token, of which only the SHA-256 is stored.",
            },
            bases=["Model"],
        ),
    ]
