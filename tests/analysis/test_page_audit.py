"""The page audit: the facts read from a page's HTML, on a known page, on each
provider's real snippet, on broken markup, and under hypothesis (never raises, bounded, known
snippets found wherever they sit)."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.modules.analysis.schemas import ITEM_MAX, PageFactsOut
from agency.modules.analysis.service import page_audit
from agency.modules.analysis.service.page_audit import LIST_MAX, TYPES_MAX, audit_html
from agency.modules.speedtest.api import URL_MAX

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")

PAGE = """<!doctype html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title>  Smile Dental
     Clinic | Berlin </title>
  <meta name="description" content="Gentle dentistry in Berlin-Mitte.">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta property="og:title" content="Smile Dental Clinic">
  <script type="application/ld+json">
    {"@context": "https://schema.org", "@graph": [
      {"@type": "Dentist", "name": "Smile"},
      {"@type": ["LocalBusiness", "MedicalBusiness"], "address": {"@type": "PostalAddress"}}
    ]}
  </script>
  <script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script>
  <script>
    window.dataLayer = window.dataLayer || [];
    function gtag(){dataLayer.push(arguments);}
    gtag('js', new Date()); gtag('config', 'G-ABC123');
  </script>
  <style>.btn { color: red } /* call +49 30 9999999 */</style>
</head>
<body>
  <nav><button class="menu-toggle">Menu</button>
    <a href="/">Home</a><a href="/team">Our team</a></nav>
  <h1>Gentle dentistry in Berlin</h1>
  <h2>Treatments</h2><h3>Cleaning</h3><h3>Implants</h3>
  <a class="btn btn-primary"
     href="https://calendly.com/smile-dental/checkup">Book an appointment</a>
  <a href="/contact">Contact us</a>
  <a href="/prices" class="cta">See prices</a>
  <div role="button" tabindex="0">Get started</div>
  <form action="/enquiry" method="post">
    <input type="hidden" name="csrf" value="x">
    <input type="text" name="name"><input type="email" name="email">
    <select name="topic"><option>Cleaning</option></select>
    <textarea name="message"></textarea>
    <input type="submit" value="Send enquiry">
  </form>
  <img src="hero.jpg" alt="Our clinic"><img src="divider.svg" alt=""><img src="team.jpg">
  <img src="x.jpg">
  <p>Call us on +49 30 1234 5678.</p>
  <p>Write to <a href="mailto:hello@smile-dental.example">us</a>.</p>
  <div itemscope itemtype="https://schema.org/FAQPage"></div>
  <script src="https://widget.intercom.io/widget/abc123"></script>
</body>
</html>
"""


def audit(html: str, url: str = "https://smile-dental.example/") -> PageFactsOut:
    return audit_html(html, final_url=url, http_status=200)


def test_a_known_page_gives_its_facts() -> None:
    facts = audit(PAGE)

    assert facts == PageFactsOut(
        final_url="https://smile-dental.example/",
        http_status=200,
        title="Smile Dental Clinic | Berlin",
        meta_description="Gentle dentistry in Berlin-Mitte.",
        h1=["Gentle dentistry in Berlin"],
        headings=4,
        calls_to_action=[
            "Book an appointment",
            "Contact us",
            "See prices",
            "Get started",
            "Send enquiry",
        ],
        forms=1,
        form_fields=4,
        phone=True,
        email=True,
        structured_data=["Dentist", "LocalBusiness", "MedicalBusiness", "PostalAddress", "FAQPage"],
        open_graph=True,
        viewport=True,
        language="en-GB",
        images=4,
        images_without_alt=2,
        scripts=3,
        script_kb=1,
        booking_widgets=["Calendly"],
        chat_widgets=["Intercom"],
        analytics=["Google Analytics 4"],
        https=True,
    )


def test_an_empty_page_has_no_facts_but_the_address() -> None:
    facts = audit_html("", final_url="http://example.com/", http_status=404)

    assert facts.http_status == 404
    assert facts.https is False
    assert facts.title is None and facts.meta_description is None and facts.language is None
    assert facts.h1 == [] and facts.calls_to_action == [] and facts.structured_data == []
    assert (facts.headings, facts.forms, facts.form_fields, facts.images, facts.scripts) == (
        0,
        0,
        0,
        0,
        0,
    )
    assert not (facts.phone or facts.email or facts.open_graph or facts.viewport)
    assert facts.booking_widgets == facts.chat_widgets == facts.analytics == []


def test_an_empty_alt_is_decorative_and_a_missing_one_counts() -> None:
    facts = audit('<img src=a alt=""><img src=b alt><img src=c><img src=d alt="A dog">')

    assert (facts.images, facts.images_without_alt) == (4, 1)


def test_hidden_and_button_inputs_are_not_fields() -> None:
    html = (
        "<form><input type=hidden><input type=submit value=Go><input type=button value=X>"
        "<input type=reset><input type=image src=a><input><input type=tel><select></select>"
        "<textarea></textarea></form><form></form>"
    )

    facts = audit(html)

    assert (facts.forms, facts.form_fields) == (2, 4)


@pytest.mark.parametrize(
    ("html", "kind", "name"),
    [
        (
            '<script src="https://assets.calendly.com/assets/external/widget.js"></script>',
            "booking",
            "Calendly",
        ),
        ('<a href="https://calendly.com/jane/30min">Book</a>', "booking", "Calendly"),
        (
            '<iframe src="https://app.acuityscheduling.com/schedule.php?owner=1"></iframe>',
            "booking",
            "Acuity Scheduling",
        ),
        ('<a href="https://smile.simplybook.me/v2/">Book</a>', "booking", "SimplyBook.me"),
        (
            '<script src="https://my.setmore.com/webapp/js/src/others/setmore_iframe.js"></script>',
            "booking",
            "Setmore",
        ),
        (
            '<script>(function (C, A, L) { p(C.Cal, "https://app.cal.com/embed/embed.js") })'
            "</script>",
            "booking",
            "Cal.com",
        ),
        (
            '<a href="https://www.doctolib.de/zahnarzt/berlin/dr-x">Termin</a>',
            "booking",
            "Doctolib",
        ),
        ('<a href="https://www.jameda.de/berlin/zahnaerzte/dr-x/">Jameda</a>', "booking", "Jameda"),
        ('<iframe src="https://book.timify.com/?accountId=1"></iframe>', "booking", "Timify"),
        (
            '<div class="meetings-iframe-container" data-src="https://meetings.hubspot.com/jane">'
            "</div>",
            "booking",
            "HubSpot Meetings",
        ),
        ('<script>window.intercomSettings = {app_id: "abc"};</script>', "chat", "Intercom"),
        ('<script src="https://js.driftt.com/include/1/abc.js"></script>', "chat", "Drift"),
        (
            '<script>var Tawk_API=Tawk_API||{}; s1.src="https://embed.tawk.to/abc/default";'
            "</script>",
            "chat",
            "Tawk.to",
        ),
        ('<script>window.$crisp=[];window.CRISP_WEBSITE_ID="x";</script>', "chat", "Crisp"),
        (
            '<script id="ze-snippet" src="https://static.zdassets.com/ekr/snippet.js?key=x">'
            "</script>",
            "chat",
            "Zendesk",
        ),
        (
            "<script>window.__lc = window.__lc || {}; window.__lc.license = 123;</script>",
            "chat",
            "LiveChat",
        ),
        (
            '<script src="//js.usemessages.com/conversations-embed.js"></script>',
            "chat",
            "HubSpot chat",
        ),
        ('<script src="//code.tidio.co/abcdef.js" async></script>', "chat", "Tidio"),
        ('<a href="https://wa.me/4930123456">WhatsApp</a>', "chat", "WhatsApp"),
        (
            '<script async src="https://www.googletagmanager.com/gtag/js?id=G-X"></script>',
            "analytics",
            "Google Analytics 4",
        ),
        (
            "<script>(function(w,d,s,l,i){w[l]=w[l]||[];})(window,document,'script','dataLayer',"
            "'GTM-ABC123');</script>",
            "analytics",
            "Google Tag Manager",
        ),
        (
            '<script>var _paq = window._paq = []; _paq.push(["trackPageView"]);</script>',
            "analytics",
            "Matomo",
        ),
        ('<script src="https://stats.example.org/matomo.js"></script>', "analytics", "Matomo"),
        (
            '<script defer data-domain="x.com" src="https://plausible.io/js/script.js"></script>',
            "analytics",
            "Plausible",
        ),
        (
            '<script src="https://cdn.usefathom.com/script.js" data-site="ABC"></script>',
            "analytics",
            "Fathom",
        ),
        (
            "<script>!function(f,b,e,v,n,t,s){}(window, document,'script',"
            "'https://connect.facebook.net/en_US/fbevents.js'); fbq('init', '1');</script>",
            "analytics",
            "Meta Pixel",
        ),
        (
            "<script>(function(h,o,t,j,a,r){h._hjSettings={hjid:1};})(window,document,"
            "'https://static.hotjar.com/c/hotjar-','.js?sv=');</script>",
            "analytics",
            "Hotjar",
        ),
    ],
)
def test_providers_are_recognised_by_their_snippets(html: str, kind: str, name: str) -> None:
    facts = audit(f"<html><body><p>Hello</p>{html}</body></html>")

    found = {
        "booking": facts.booking_widgets,
        "chat": facts.chat_widgets,
        "analytics": facts.analytics,
    }
    assert name in found[kind]
    others = [n for k, names in found.items() if k != kind for n in names]
    assert others == []


def test_look_alike_hosts_are_not_providers() -> None:
    html = (
        '<a href="https://www.medical.com/">Medical</a><a href="https://local.com">x</a>'
        '<a href="https://notcalendly.com.evil.example/">x</a><a href="https://has.me.uk">x</a>'
        "<p>calendly.com is great, we use Tawk_API in our docs? no.</p>"
    )

    facts = audit(html)

    assert facts.booking_widgets == [] and facts.analytics == []
    # Snippets count in code, not in prose.
    assert facts.chat_widgets == []


@pytest.mark.parametrize(
    "text",
    [
        "+49 30 1234567",
        "(030) 123 45 67",
        "030 1234567",
        "555-123-4567",
        "+1 (555) 123-4567",
        "0044 20 7946 0958",
    ],
)
def test_phone_numbers_in_the_text(text: str) -> None:
    assert audit(f"<p>Call {text} today</p>").phone is True


@pytest.mark.parametrize(
    "text",
    [
        "© 2024-2025",
        "Order 123456789",
        "12.03.2025",
        "Stand: 01.01.2024",
        "01/02/2025",
        "Open 9-17",
        "ISBN 978 3 16",
        "+49",
    ],
)
def test_numbers_that_are_not_phones(text: str) -> None:
    assert audit(f"<p>{text}</p>").phone is False


def test_a_tel_link_is_a_phone_and_a_mailto_an_email() -> None:
    facts = audit('<a href="tel:+4930123">Call</a><a href="MAILTO:info@x.de">Mail</a>')

    assert facts.phone and facts.email


def test_an_address_in_the_text_is_an_email_but_not_in_code() -> None:
    assert audit("<p>info@smile-dental.de</p>").email is True
    assert audit("<script>var a = 'info@smile-dental.de';</script>").email is False
    assert audit("<p>user@localhost or @handle</p>").email is False


def test_calls_to_action_skip_page_controls_and_plain_links() -> None:
    html = (
        "<button>Menu</button><button aria-label='Close'></button><button>\u00d7</button>"
        "<a href='/about'>About</a><a href='/blog'>Blog</a>"
        "<a href='/book'>Book a free call</a><a class='button large' href='/x'>Our work</a>"
        "<button>Get a quote</button><a href='/c' id='cta-main'>Let's talk</a>"
        "<a href='/start'>GET STARTED</a><a href='/start'>Get started</a>"
        "<input type=submit value='Subscribe'><span role=button>Jetzt Termin buchen</span>"
    )

    facts = audit(html)

    assert facts.calls_to_action == [
        "Book a free call",
        "Our work",
        "Get a quote",
        "Let's talk",
        "GET STARTED",
        "Subscribe",
        "Jetzt Termin buchen",
    ]


def test_lists_are_capped_and_strings_trimmed() -> None:
    long = "word " * 400
    html = (
        f"<title>{long}</title><meta name=description content='{long}'>"
        + "".join(f"<h1>Heading {n} {long}</h1>" for n in range(30))
        + "".join(f"<button>Book now {n}</button>" for n in range(30))
        + "<script type='application/ld+json'>["
        + ",".join(f'{{"@type": "Type{n}"}}' for n in range(50))
        + "]</script>"
    )

    facts = audit(html)

    assert facts.title is not None and len(facts.title) == ITEM_MAX
    assert facts.meta_description is not None and len(facts.meta_description) <= ITEM_MAX
    assert len(facts.h1) == LIST_MAX and all(len(h) <= ITEM_MAX for h in facts.h1)
    assert len(facts.calls_to_action) == LIST_MAX
    assert len(facts.structured_data) == TYPES_MAX
    assert facts.headings == 30


def test_broken_markup_is_read_as_far_as_it_goes() -> None:
    html = (
        "<html lang=fr><title>Unclosed title<h1>Never closed <a href='/book'>Réserver"
        "<script type='application/ld+json'>{not json</script><img src=a <img src=b alt=x>"
        "<!-- <h1>commented</h1> --><![CDATA[ x ]]><!weird><?php echo 1 ?></div></span>"
    )

    facts = audit(html)

    assert facts.language == "fr"
    assert facts.structured_data == []
    assert facts.images >= 1


def test_https_comes_from_the_final_address() -> None:
    assert audit("", "https://a.example/").https is True
    assert audit("", "HTTPS://a.example/").https is True
    assert audit("", "http://a.example/").https is False
    assert audit("", "not a url").https is False


def test_inline_script_size_is_counted_and_data_blocks_are_not_scripts() -> None:
    code = "x=1;" * 1024  # 4 KB
    html = (
        f"<script>{code}</script><script type=module>{code}</script>"
        "<script type='text/template'><div>Book now</div></script>"
        '<script type=\'application/ld+json\'>{"@type": "Thing"}</script>'
    )

    facts = audit(html)

    assert facts.scripts == 2
    assert facts.script_kb == 8
    assert facts.calls_to_action == []


# Hypothesis

_SNIPPETS = [
    (
        '<script src="https://assets.calendly.com/assets/external/widget.js"></script>',
        "booking_widgets",
        "Calendly",
    ),
    ('<script src="//code.tidio.co/abcdef.js"></script>', "chat_widgets", "Tidio"),
    ("<script>window.$crisp=[];</script>", "chat_widgets", "Crisp"),
    (
        '<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>',
        "analytics",
        "Google Analytics 4",
    ),
    ('<script src="https://plausible.io/js/script.js"></script>', "analytics", "Plausible"),
    ('<meta name="description" content="Hello there">', "meta_description", "Hello there"),
    ('<a href="tel:+4930123456">Call</a>', "phone", True),
    ('<meta name="viewport" content="width=device-width">', "viewport", True),
]

# Text that cannot open markup, so a snippet after it is still read as markup.
_plain = st.text(alphabet=st.characters(blacklist_characters="<&", codec="utf-8"), max_size=200)
_markupish = st.text(
    alphabet=st.sampled_from(list("<>/=\"' !-abcdhilmnoprstuvx[]&;#123\n")), max_size=300
)


@given(st.one_of(st.text(max_size=2000), _markupish), st.text(max_size=300))
def test_never_raises_and_stays_bounded(html: str, url: str) -> None:
    facts = audit_html(html, final_url=url, http_status=200)

    strings = [
        facts.title or "",
        facts.meta_description or "",
        facts.language or "",
        *facts.h1,
        *facts.calls_to_action,
        *facts.structured_data,
    ]
    assert all(len(s) <= ITEM_MAX and not CONTROL.search(s) for s in strings)
    assert len(facts.final_url) <= URL_MAX and not CONTROL.search(facts.final_url)
    assert len(facts.h1) <= LIST_MAX and len(facts.calls_to_action) <= LIST_MAX
    assert len(facts.structured_data) <= TYPES_MAX
    assert 0 <= facts.images_without_alt <= facts.images


@given(_plain, st.sampled_from(_SNIPPETS), _plain)
def test_known_snippets_are_found_amid_any_text(
    before: str, snippet: tuple[str, str, object], after: str
) -> None:
    html, fact, expected = snippet

    facts = audit(f"<html><body><p>{before}</p>{html}<p>{after}</p></body></html>")

    value = getattr(facts, fact)
    if isinstance(value, list):
        assert expected in value
    else:
        assert value == expected


def test_control_characters_and_lone_surrogates_are_cleaned() -> None:
    facts = audit("<title>A\x00B\ud800C\x1bD</title><h1>\tx\n y </h1>")

    assert facts.title == "A B C D"
    assert facts.h1 == ["x y"]


@pytest.mark.parametrize(
    "html", ["<svg" * 200_000, "<a href='x" * 100_000, "<!--x" + "<!-" * 200_000]
)
def test_crafted_markup_is_read_within_the_cpu_budget(
    html: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # html.parser before 3.13.4 is quadratic on these; the audit stops at its CPU budget.
    monkeypatch.setattr(page_audit, "PARSE_CPU_SECONDS", 0.3)
    started = time.thread_time()

    facts = audit(html)

    assert time.thread_time() - started < 2.0
    assert facts.final_url == "https://smile-dental.example/"


def test_a_page_with_too_many_tags_is_read_that_far(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(page_audit, "EVENTS_MAX", 40)
    html = "<title>Kept</title><a href='tel:+4930123456'>Call</a>" + "<h2>x</h2>" * 100

    facts = audit(html + "<script src='https://plausible.io/js/script.js'></script>")

    assert facts.title == "Kept" and facts.phone
    assert facts.headings < 40
    assert facts.analytics == []


def test_inline_svg_is_skipped_with_its_title() -> None:
    html = (
        "<head><title>Page</title></head><body><svg><title>Icon</title>"
        + "<path d='M0 0'/>" * 1000
        + "</svg><h1>Hello</h1><svg viewBox='0 0 1 1'><a href='/x'>Buy now</a></svg></body>"
    )

    facts = audit(html)

    assert facts.title == "Page" and facts.h1 == ["Hello"]
    assert facts.calls_to_action == []
    # Text whose lower case is longer (İ) before the drawing does not shift what is cut.
    assert audit("<p>İİİ</p><SVG><title>x</title></SVG><h1>After</h1>").h1 == ["After"]


async def test_the_audit_runs_off_the_event_loop() -> None:
    facts = await page_audit.audit_in_thread(PAGE, final_url="https://a.example/", http_status=200)

    assert facts == audit(PAGE, "https://a.example/")
