"""Customer websites and their speed checks."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

LIVE, BUILDING, PAUSED, CANCELLED = "live", "building", "paused", "cancelled"
STATUSES = (BUILDING, LIVE, PAUSED, CANCELLED)

# A speed check's kinds: the customer's 'Run speed test', the schedule's, or the first test
# of the delivered site, queued when it goes live.
MANUAL, MONITOR, LAUNCH = "manual", "monitor", "launch"
RUNNING, DONE, FAILED = "running", "done", "failed"


class Website(Model):
    id = fields.IntField(primary_key=True)
    # The owner's user id (the auth module's); read through auth's api, not a foreign key.
    user_id = fields.IntField(db_index=True)
    domain = fields.CharField(max_length=253)
    page_speed = fields.IntField(null=True)
    status = fields.CharField(max_length=16, default=BUILDING)
    created_at = fields.DatetimeField(auto_now_add=True)
    deleted_at = fields.DatetimeField(null=True)
    # The catalogue plan bought with it (billing passes it), for the delivery promise.
    plan_key = fields.CharField(max_length=64, null=True)
    status_changed_at = fields.DatetimeField(null=True)
    # Set while a speed check of the site runs: one at a time (a compare-and-swap claims it).
    checking_since = fields.DatetimeField(null=True)
    # When the schedule last started a test of the site (live sites are monitored).
    monitored_at = fields.DatetimeField(null=True)
    # When the delivered site went live (building -> live, or live for the first time): scores
    # of tests asked for before it measured the old site, never shown as the live site's.
    went_live_at = fields.DatetimeField(null=True)

    class Meta:
        table = "sites_website"


class SpeedCheck(Model):
    """One speed test of a website, run by the insights module (`test_id` is its id)."""

    id = fields.IntField(primary_key=True)
    website: fields.ForeignKeyRelation[Website] = fields.ForeignKeyField(
        "models.Website", related_name="checks", on_delete=fields.CASCADE
    )
    test_id = fields.CharField(max_length=32)
    kind = fields.CharField(max_length=16, default=MANUAL)
    status = fields.CharField(max_length=16, default=RUNNING)
    score = fields.IntField(null=True)
    previous_score = fields.IntField(null=True)  # the site's score when the check started
    error = fields.TextField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    finished_at = fields.DatetimeField(null=True)

    class Meta:
        table = "sites_speed_check"
