"""A local "customer site" for the website analysis: a real HTTP server on 127.0.0.1
whose pages have known facts.

- `/` (RICH_PATH): everything an audit looks for: title, meta description, one h1, headings,
  a Calendly booking embed, a contact form (name, e-mail, message), a phone link and a mailto
  link, Open Graph tags, JSON-LD Organization, a GA4 tag (gtag.js), a viewport, `lang="en"`,
  three images of which one has no alt text, and calls to action. It also sets a cookie (the
  fetcher must not send it back).
- `/bare` (BARE_PATH): a title only: no description, h1, form, contact, structured data, Open
  Graph, viewport, language, analytics, widgets; one image without alt text.
- `/redirect/N`: a chain of N redirects (302, each setting a cookie) ending at `/`; `/loop`:
  redirects to itself.
- `/to-private`: redirects to `http://127.0.0.1:{port}/` (refused unless private targets are
  allowed); `/to-ipv6-loopback`: redirects to `http://[::1]/`.
- `/data.json`: JSON, not a web page; `/huge`: an HTML page of HUGE_BYTES; `/slow`: answers
  after `slow_seconds`; `/error`: 500; `/missing`: 404.

Every request is logged in `requests` (path and headers). From pytest::

    with run_customer_site() as site:
        settings = Settings(speedtest_unsafe_allow_private_targets=True,
                            analysis_unsafe_fetch_overrides={"customer-site.com": site.base_url})

From a shell: ``python -m tests.fakes.customer_site --port 12115``.
"""

from __future__ import annotations

import argparse
import asyncio
from contextlib import AbstractContextManager
from dataclasses import dataclass

from quart import Response, request

from tests.fakes.serving import FakeServer, serving

RICH_PATH = "/"
BARE_PATH = "/bare"
HUGE_BYTES = 3_000_000

# What the audit must find on `/` (PageFactsOut's names).
RICH_FACTS: dict[str, object] = {
    "title": "Bright Smile Dental Clinic | Dentist in Berlin",
    "meta_description": "Family dentistry in Berlin Mitte. Book your check-up online today.",
    "h1": ["Your Dentist in Berlin Mitte"],
    "forms": 1,
    "form_fields": 3,
    "phone": True,
    "email": True,
    "structured_data": ["Organization"],
    "open_graph": True,
    "viewport": True,
    "language": "en",
    "images": 3,
    "images_without_alt": 1,
    "booking_widgets": ["Calendly"],
    "chat_widgets": [],
    "analytics": ["Google Analytics 4"],
}
BARE_FACTS: dict[str, object] = {
    "title": "Welcome",
    "meta_description": None,
    "h1": [],
    "forms": 0,
    "form_fields": 0,
    "phone": False,
    "email": False,
    "structured_data": [],
    "open_graph": False,
    "viewport": False,
    "language": None,
    "images": 1,
    "images_without_alt": 1,
    "booking_widgets": [],
    "chat_widgets": [],
    "analytics": [],
}

RICH_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bright Smile Dental Clinic | Dentist in Berlin</title>
<meta name="description"
 content="Family dentistry in Berlin Mitte. Book your check-up online today.">
<meta property="og:title" content="Bright Smile Dental Clinic">
<meta property="og:description" content="Family dentistry in Berlin Mitte.">
<meta property="og:image" content="/og.jpg">
<script type="application/ld+json">
{"@context": "https://schema.org", "@type": "Organization", "name": "Bright Smile Dental Clinic",
 "url": "https://customer-site.com", "telephone": "+49 30 555 0100"}
</script>
<script async src="https://www.googletagmanager.com/gtag/js?id=G-TEST1234"></script>
<script>
window.dataLayer = window.dataLayer || [];
function gtag(){dataLayer.push(arguments);}
gtag('js', new Date());
gtag('config', 'G-TEST1234');
</script>
</head>
<body>
<header>
<nav><a href="/">Home</a> <a href="/services">Services</a>
<a href="#book" class="button">Book an Appointment</a></nav>
</header>
<main>
<h1>Your Dentist in Berlin Mitte</h1>
<p>Gentle care for the whole family, open six days a week.</p>
<img src="/team.jpg" alt="Our dental team">
<img src="/clinic.jpg" alt="The clinic's waiting room">
<img src="/smile.jpg">
<h2>Our services</h2>
<ul><li>Check-ups</li><li>Whitening</li><li>Implants</li></ul>
<h2 id="book">Book online</h2>
<div class="calendly-inline-widget" data-url="https://calendly.com/bright-smile/checkup"></div>
<script src="https://assets.calendly.com/assets/external/widget.js" async></script>
<h2>Contact us</h2>
<p>Call <a href="tel:+49305550100">+49 30 555 0100</a> or write to
<a href="mailto:hello@customer-site.com">hello@customer-site.com</a>.</p>
<form action="/contact" method="post">
<label>Name <input type="text" name="name"></label>
<label>E-mail <input type="email" name="email"></label>
<label>Message <textarea name="message"></textarea></label>
<button type="submit">Send Message</button>
</form>
</main>
<footer><p>Bright Smile Dental Clinic, Berlin</p></footer>
</body>
</html>
"""

BARE_HTML = """<html>
<head><title>Welcome</title></head>
<body>
<p>Under construction.</p>
<img src="/logo.png">
</body>
</html>
"""


@dataclass(frozen=True)
class SiteRequest:
    path: str
    headers: dict[str, str]


class CustomerSite(FakeServer):
    name = "customer-site"

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[SiteRequest] = []
        self.slow_seconds = 15.0
        app = self.app

        @app.before_request
        async def log_request() -> None:
            self.requests.append(SiteRequest(request.path, dict(request.headers)))

        @app.get(RICH_PATH)
        async def rich() -> Response:
            response = Response(RICH_HTML, content_type="text/html; charset=utf-8")
            response.set_cookie("visitor", "tracked-123")
            return response

        @app.get(BARE_PATH)
        async def bare() -> Response:
            return Response(BARE_HTML, content_type="text/html")

        @app.get("/redirect/<int:count>")
        async def chain(count: int) -> Response:
            target = RICH_PATH if count <= 1 else f"/redirect/{count - 1}"
            response = Response("", status=302, headers={"Location": target})
            response.set_cookie(f"hop{count}", "seen")
            return response

        @app.get("/loop")
        async def loop() -> Response:
            return Response("", status=302, headers={"Location": "/loop"})

        @app.get("/to-private")
        async def to_private() -> Response:
            return Response("", status=302, headers={"Location": f"{self.base_url}/"})

        @app.get("/to-ipv6-loopback")
        async def to_ipv6() -> Response:
            return Response("", status=301, headers={"Location": "http://[::1]/"})

        @app.get("/data.json")
        async def data() -> Response:
            return Response('{"ok": true}', content_type="application/json")

        @app.get("/huge")
        async def huge() -> Response:
            filler = "<p>" + "x" * 1000 + "</p>\n"
            body = "<html><body>" + filler * (HUGE_BYTES // len(filler) + 1) + "</body></html>"
            return Response(body, content_type="text/html")

        @app.get("/slow")
        async def slow() -> Response:
            await asyncio.sleep(self.slow_seconds)
            return Response(BARE_HTML, content_type="text/html")

        @app.get("/error")
        async def error() -> Response:
            return Response("<h1>Server error</h1>", status=500, content_type="text/html")

        @app.get("/missing")
        async def missing() -> Response:
            return Response("<h1>Not found</h1>", status=404, content_type="text/html")

    def paths(self) -> list[str]:
        return [r.path for r in self.requests]


def run_customer_site(port: int | None = None) -> AbstractContextManager[CustomerSite]:
    return serving(CustomerSite(), port)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=12115)
    CustomerSite().serve_forever(parser.parse_args().port)


if __name__ == "__main__":
    main()
