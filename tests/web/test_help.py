"""``/help`` and its glossary (issue 16, learning): the page has a table of contents, an anchor
for every glossary term and every picture it shows; ``/help/glossary.json`` is the same
glossary for the game page's term links, cacheable and revalidated by its ETag; the site header
and the lobby link to the page; the pictures keep to the CSP (no style attribute or element)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import httpx

from app.web.glossary import GLOSSARY, check_forms, glossary_json

ROOT_STATIC = "/static/help/"


class Parts(HTMLParser):
    """The ids, in-page links, images and the header's links of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.fragments: list[str] = []
        self.images: list[tuple[str, str]] = []
        self.nav: list[str] = []
        self._in_nav = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "nav" and "site" in a.get("class", ""):
            self._in_nav = 1
        if tag == "a":
            href = a.get("href", "")
            if href.startswith("#"):
                self.fragments.append(href[1:])
            if self._in_nav:
                self.nav.append(href)
        if tag == "img":
            self.images.append((a.get("src", ""), a.get("alt", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_nav = 0


def parts(html: str) -> Parts:
    p = Parts()
    p.feed(html)
    return p


async def test_the_help_page_has_every_glossary_anchor_and_every_link_lands(
    client: httpx.AsyncClient,
) -> None:
    r = await client.get("/help")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    page = parts(r.text)
    assert len(page.ids) == len(set(page.ids)), "an id is used twice"
    for term in GLOSSARY:
        assert term.anchor in page.ids, term.anchor
        assert term.section in page.ids, (term.slug, term.section)
    # the table of contents and every in-page link point at something on the page
    assert {"start", "deploy", "move", "ping", "overwatch", "fire", "ordnance", "end"} <= set(
        page.fragments
    )
    missing = sorted(set(page.fragments) - set(page.ids))
    assert not missing, missing
    assert "/help" in page.nav
    # the two movement systems and the dice both come up in the rules' own numbers
    assert "Cinematic" in r.text and "Vector" in r.text and "2BD*" in r.text


async def test_every_picture_is_served_described_and_keeps_to_the_csp(
    client: httpx.AsyncClient,
) -> None:
    images = parts((await client.get("/help")).text).images
    assert len(images) >= 5
    for src, alt in images:
        assert src.startswith(ROOT_STATIC), src
        assert len(alt) > 40, f"{src} needs a description, not {alt!r}"
        r = await client.get(src)
        assert r.status_code == 200, src
        assert r.headers["content-type"].startswith("image/svg+xml"), src
        # the CSP allows no inline style: the pictures use presentation attributes only
        assert not re.search(r"\bstyle\s*=|<style", r.text), src
        assert "<script" not in r.text and "href=" not in r.text, src


async def test_the_glossary_json_is_the_glossary_and_cacheable(
    client: httpx.AsyncClient,
) -> None:
    r = await client.get("/help/glossary.json")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers["cache-control"] == "public, max-age=3600"
    assert r.json() == glossary_json()
    hrefs = [t["href"] for t in r.json()["terms"]]
    assert hrefs == [f"/help#{term.anchor}" for term in GLOSSARY]
    again = await client.get("/help/glossary.json", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    other = await client.get("/help/glossary.json", headers={"If-None-Match": '"other"'})
    assert other.status_code == 200


def test_the_glossary_names_the_terms_of_the_issue_once_each() -> None:
    slugs = [term.slug for term in GLOSSARY]
    assert len(slugs) == len(set(slugs))
    wanted = {
        "bd-notation", "band", "beam-dice", "threshold", "overwatch", "ping", "pinged", "stale",
        "activation", "fire-control", "screens", "ecm", "stealth", "salvo", "cef",
        "point-defence", "fighter-group", "drone",
    }  # fmt: skip
    assert wanted <= set(slugs)
    check_forms()
    for term in GLOSSARY:
        assert term.short.strip() and term.long.strip(), term.slug
        assert len(term.short) <= 120, (term.slug, len(term.short))


def test_each_term_finds_its_words_and_pinged_keeps_its_case() -> None:
    def finds(slug: str, text: str) -> bool:
        term = next(t for t in GLOSSARY if t.slug == slug)
        flags = 0 if term.exact_case else re.IGNORECASE
        return any(re.search(rf"(?<![\w-])(?:{form})(?![\w-])", text, flags) for form in term.forms)

    assert finds("bd-notation", "≤12: 2BD*, ≤24: 1BD+1*")
    assert finds("ping", "Lance pinged") and finds("ping", "Ping before moving")
    assert finds("pinged", "PINGED") and not finds("pinged", "it pinged")
    assert finds("ecm", "area ECM") and not finds("ecm", "decmal")
    assert finds("fire-window", "Fire window 12 is open")
    assert not finds("band", "husband") and not finds("mu", "much")


async def test_the_lobby_links_the_help_page(client: httpx.AsyncClient) -> None:
    r = await client.get("/")
    assert r.status_code == 200
    assert re.search(r'<p class="help-link">[^<]*<a href="/help">How to play</a>', r.text)
