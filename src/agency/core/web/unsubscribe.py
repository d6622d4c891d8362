"""The Quart side of the mail layer's opt-out: `POST /api/mail/unsubscribe`.

Two callers post to it. A mail provider honouring RFC 8058's one-click header posts
`List-Unsubscribe=One-Click`, form-encoded, to the header's address (the token in the query),
with no cookie and without our CSRF header: the path is exempt from the CSRF guard, which costs
nothing here, since only the token decides and it was mailed to the address it stops. Our page
(`/unsubscribe`, where the e-mail's link goes) posts JSON `{"token": ...}` after a click. No GET
unsubscribes (link scanners and previews fetch every link of a message): a GET of the API
address, which a mail reader without one-click support opens in a browser, is sent on to the
page. Refused tokens are counted per client address (`REFUSED_PER_ADDRESS`); a valid one is
never refused, so no provider's retry is needed to keep an opt-out.
"""

from __future__ import annotations

from urllib.parse import urlencode

from pydantic import BaseModel, Field, ValidationError
from quart import Blueprint, redirect, request
from quart_schema import document_request, hide, validate_querystring, validate_response
from werkzeug.wrappers import Response

from agency.core import mail
from agency.core.errors import ValidationFailed
from agency.core.text import Line
from agency.core.web.request_layer import current_client_ip

MSG_INVALID = mail.MSG_UNSUBSCRIBE_INVALID
REFUSED_PER_ADDRESS = mail.REFUSED_PER_ADDRESS

blueprint = Blueprint("mail", __name__)


class UnsubscribeQuery(BaseModel):
    # Any text: whether it is one of our tokens is the mail layer's to say (a refusal is
    # counted per client address there), not a schema error.
    token: str | None = None


class UnsubscribeIn(BaseModel):
    """Our page's call; a provider's one-click call sends `List-Unsubscribe=One-Click`,
    form-encoded, with the token in the query instead."""

    token: Line = Field(max_length=mail.TOKEN_MAX)


class UnsubscribeOut(BaseModel):
    address: str
    unsubscribed: bool


@blueprint.post(mail.UNSUBSCRIBE_PATH)
@validate_querystring(UnsubscribeQuery)
@document_request(UnsubscribeIn)
@validate_response(UnsubscribeOut, 200)
async def post_unsubscribe(query_args: UnsubscribeQuery) -> UnsubscribeOut:
    """Stop reports and marketing to the address an unsubscribe link was made for.

    The link's token comes in the query (a mail provider's one-click call, form-encoded, no
    CSRF header needed) or in a JSON body (our page). Doing it again changes nothing; a token
    that is not ours answers 400."""
    token = query_args.token or await _body_token()
    client = current_client_ip() or request.remote_addr or "unknown"
    return UnsubscribeOut(address=await mail.unsubscribe_request(token, client), unsubscribed=True)


async def _body_token() -> str | None:
    """The token of a JSON body, or None without one (a form, an empty body). A body that
    claims JSON and is not, or holds no token, is a 400 `validation_error` (JsonRequest)."""
    body = await request.get_json()
    if body is None:
        return None
    try:
        return UnsubscribeIn.model_validate(body).token
    except ValidationError as error:
        raise ValidationFailed(MSG_INVALID, fields={"token": MSG_INVALID}) from error


@blueprint.get(mail.UNSUBSCRIBE_PATH)
@hide
@validate_querystring(UnsubscribeQuery)
async def get_unsubscribe(query_args: UnsubscribeQuery) -> Response:
    """The one-click address opened in a browser: the page, which asks before it unsubscribes."""
    token = query_args.token or ""
    query = f"?{urlencode({'token': token})}" if token else ""
    return redirect(f"{mail.UNSUBSCRIBE_PAGE}{query}", 303)
