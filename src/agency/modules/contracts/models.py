"""What a customer asked through the withdraw and cancel pages: kept as the agency's record."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

RECEIVED = "received"
CONFIRMED = "confirmed"
HANDLED = "handled"  # an admin has dealt with it (a withdrawal reimbursed, a request answered)
ORDINARY, EXTRAORDINARY = "ordinary", "extraordinary"


class Withdrawal(Model):
    """A withdrawal by a consumer from an order, as received (the agency then reimburses)."""

    id = fields.IntField(primary_key=True)
    order_id = fields.IntField(db_index=True)
    user_id = fields.IntField(db_index=True)  # 0 once the account is deleted
    email = fields.CharField(max_length=320)
    order_number = fields.CharField(max_length=32)
    plan_name = fields.CharField(max_length=200)
    domain = fields.CharField(max_length=253, null=True)
    ordered_at = fields.DatetimeField()
    deadline = fields.DateField()  # the last day of the withdrawal period
    status = fields.CharField(max_length=16, default=RECEIVED)
    received_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "contracts_withdrawal"


class Cancellation(Model):
    """A subscription cancelled through the cancel page: an ordinary cancellation is set to end
    at its period end at once (status confirmed); an extraordinary one, for good cause, is a
    request the agency decides on (status received, with the reason)."""

    id = fields.IntField(primary_key=True)
    subscription_id = fields.CharField(max_length=255, db_index=True)
    order_id = fields.IntField(null=True)
    user_id = fields.IntField(db_index=True)  # 0 once the account is deleted
    email = fields.CharField(max_length=320)
    plan_name = fields.CharField(max_length=200)
    ends_at = fields.DatetimeField(null=True)
    kind = fields.CharField(max_length=16, default=ORDINARY)
    reason = fields.TextField(null=True)
    status = fields.CharField(max_length=16, default=CONFIRMED)
    requested_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "contracts_cancellation"
