"""Security headers on every answer (app/edge/headers.py), and Secure cookies behind TLS.

- Pages, the API, static files and errors (a page's 404 and 403, the API's 404 and 413, a
  crash's 500) all carry the Content-Security-Policy, ``X-Content-Type-Options: nosniff`` and
  ``Referrer-Policy: no-referrer``.
- The policy: ``default-src 'self'``, scripts only from here or with this answer's nonce (never
  ``'unsafe-inline'`` or ``'unsafe-eval'``), no inline styles, ``frame-ancestors 'none'``,
  ``object-src 'none'``, ``base-uri 'none'``, ``form-action 'self'``. The nonce is fresh per
  answer and is the one the page's script tags carry; no template holds an inline script, an
  inline style or an event-handler attribute.
- ``Strict-Transport-Security`` only over https (httpx with an ``https://`` base URL), read
  after a proxy-headers middleware inside has set the scheme; ``PINGDUEL_HSTS_MAX_AGE=0`` sends
  none. Every cookie the pages set or clear is ``Secure`` over https and only then.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from starlette.responses import PlainTextResponse
from starlette.types import Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.edge.headers import SecurityHeaders
from app.main import create_app
from tests.conftest import ADMIN, ROOT, make_settings
from tests.web import API, Browser, create_game

TEMPLATES = ROOT / "templates"
VENDOR = ROOT / "static" / "vendor"


def directives(header: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            assert words[0] not in out, f"{words[0]} twice in the policy"
            out[words[0]] = words[1:]
    return out


def assert_hardened(r: httpx.Response, https: bool = False) -> dict[str, list[str]]:
    """The headers every answer carries; the policy's directives."""
    where = f"{r.request.method} {r.request.url.path} ({r.status_code})"
    csp = r.headers.get("content-security-policy")
    assert csp, f"{where}: no Content-Security-Policy"
    assert r.headers.get_list("content-security-policy") == [csp], f"{where}: two policies"
    policy = directives(csp)
    assert policy["default-src"] == ["'self'"], where
    assert policy["frame-ancestors"] == ["'none'"], where
    assert policy["object-src"] == ["'none'"], where
    assert policy["base-uri"] == ["'none'"], where
    assert policy["form-action"] == ["'self'"], where
    scripts = policy["script-src"]
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, where
    assert [s for s in scripts if s.startswith("'nonce-")], where
    assert "'unsafe-inline'" not in policy.get("style-src", []), where
    assert r.headers.get("x-content-type-options") == "nosniff", where
    assert r.headers.get_list("referrer-policy") == ["no-referrer"], where
    hsts = r.headers.get("strict-transport-security")
    if https:
        assert hsts is not None and re.fullmatch(r"max-age=\d{7,}", hsts), where
    else:
        assert hsts is None, where
    return policy


def nonce_of(r: httpx.Response) -> str:
    scripts = directives(r.headers["content-security-policy"])["script-src"]
    (nonce,) = [s[len("'nonce-") : -1] for s in scripts if s.startswith("'nonce-")]
    return nonce


@pytest.fixture
async def https_client(db_url: str, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The app as the ``client`` fixture has it, reached over https."""
    app = create_app(make_settings(db_url, tmp_path, allow_client_seed=True))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="https://test") as c:
            yield c


def _crashing_app(tmp_path: Path, db_url: str) -> FastAPI:
    app = create_app(make_settings(db_url, tmp_path))

    @app.get("/crash-for-test")
    async def crash() -> None:
        raise RuntimeError("a bug")

    return app


# -- every kind of answer --------------------------------------------------------------------------
async def test_pages_api_static_and_errors_carry_the_headers(client: httpx.AsyncClient) -> None:
    game = await create_game(client, {"scenario": "duel"})
    answers = [
        await client.get("/"),
        await client.get("/designer"),
        await client.get(f"/games/{game.id}"),
        await client.get(f"/games/{game.id}/fragments/status"),
        await client.get("/api/docs"),
        await client.get(f"{API}/openapi.json"),
        await client.get(f"{API}/games/{game.id}"),
        await client.get("/static/css/app.css"),
        await client.get("/static/vendor/swagger-ui/swagger-ui-bundle.js"),
        await client.get("/healthz"),
        await client.get("/games/no-such-game"),  # a page's 404
        await client.get(f"{API}/games/no-such-game"),  # problem+json 404
        await client.get(f"{API}/no-such-route"),
        await client.post("/games", data={"mode": "scenario"}),  # 403: no CSRF field
        await client.post(f"{API}/games", content=b"x" * (65 * 1024)),  # 413 from BodyLimit
    ]
    statuses = [r.status_code for r in answers]
    assert statuses == [200] * 10 + [404, 404, 404, 403, 413], statuses
    for r in answers:
        assert_hardened(r)


async def test_a_crash_is_answered_with_the_headers_too(db_url: str, tmp_path: Path) -> None:
    app = _crashing_app(tmp_path, db_url)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            r = await c.get("/crash-for-test")
    assert r.status_code == 500
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == "internal_error"
    assert_hardened(r)


async def test_a_header_the_app_set_itself_is_kept() -> None:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        own = {"Referrer-Policy": "same-origin", "Content-Security-Policy": "sandbox"}
        await PlainTextResponse("hi", headers=own)(scope, receive, send)

    transport = httpx.ASGITransport(app=SecurityHeaders(app))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        r = await c.get("/")
    assert r.headers.get_list("referrer-policy") == ["same-origin"]
    assert r.headers.get_list("content-security-policy") == ["sandbox"]
    assert r.headers["x-content-type-options"] == "nosniff"


# -- the nonce -------------------------------------------------------------------------------------
async def test_the_nonce_is_fresh_per_answer_and_is_the_one_the_scripts_carry(
    client: httpx.AsyncClient,
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    seen = set()
    for path in ("/", "/", "/designer", f"/games/{game.id}", f"/games/{game.id}", "/api/docs"):
        r = await client.get(path)
        nonce = nonce_of(r)
        assert re.fullmatch(r"[0-9a-f]{32}", nonce)  # 128 bits
        seen.add(nonce)
        scripts = re.findall(r"<script\b[^>]*>", r.text)
        assert scripts, path
        for tag in scripts:
            assert 'src="/static/' in tag, f"{path}: a script not from this origin: {tag}"
            assert f'nonce="{nonce}"' in tag, f"{path}: {tag} lacks this answer's nonce"
    assert len(seen) == 6  # every answer its own
    r = await client.get(f"{API}/openapi.json")
    assert nonce_of(r) not in seen


def test_no_template_holds_inline_script_style_or_handler() -> None:
    """What the policy forbids is not written anywhere: an inline ``<script>`` (one without a
    ``src``), a ``<style>`` element, a ``style`` attribute, an ``on…=`` handler, a
    ``javascript:`` URL. (htmx's own indicator style is off: the ``htmx-config`` meta tag.)"""
    found = []
    for path in sorted(TEMPLATES.glob("*.html")):
        text = re.sub(r"\{#.*?#\}", "", path.read_text(encoding="utf-8"), flags=re.S)
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag:
                found.append(f"{path.name}: inline {tag}")
        for pattern in (r"<style\b", r"\sstyle=", r"\son[a-z]+=", r"javascript:"):
            found += [f"{path.name}: {m}" for m in re.findall(pattern, text, flags=re.I)]
    assert not found
    base = (TEMPLATES / "base.html").read_text(encoding="utf-8")
    assert '"includeIndicatorStyles": false' in base and '"allowEval": false' in base


# -- HSTS over https only --------------------------------------------------------------------------
async def test_hsts_only_over_https(
    client: httpx.AsyncClient, https_client: httpx.AsyncClient
) -> None:
    for path in ("/", f"{API}/openapi.json", "/static/css/app.css", "/games/nope"):
        assert_hardened(await client.get(path), https=False)
        assert_hardened(await https_client.get(path), https=True)


async def test_hsts_max_age_zero_sends_none(db_url: str, tmp_path: Path) -> None:
    app = create_app(make_settings(db_url, tmp_path, hsts_max_age=0))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="https://test") as c:
            r = await c.get("/")
    assert r.status_code == 200 and "strict-transport-security" not in r.headers
    assert r.headers["content-security-policy"]


async def test_hsts_follows_the_scheme_a_trusted_proxy_names() -> None:
    """Behind a TLS proxy the request arrives over http with ``X-Forwarded-Proto: https``: the
    proxy-headers middleware (inside this one) sets the scheme, and HSTS follows it."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await PlainTextResponse(scope["scheme"])(scope, receive, send)

    stack = SecurityHeaders(ProxyHeadersMiddleware(app, trusted_hosts="127.0.0.1"))
    transport = httpx.ASGITransport(app=stack, client=("127.0.0.1", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        behind = await c.get("/", headers={"X-Forwarded-Proto": "https"})
        plain = await c.get("/")
    assert behind.text == "https" and "strict-transport-security" in behind.headers
    assert plain.text == "http" and "strict-transport-security" not in plain.headers
    # from an address the proxy middleware does not trust, the header changes nothing
    transport = httpx.ASGITransport(app=stack, client=("127.0.0.9", 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        forged = await c.get("/", headers={"X-Forwarded-Proto": "https"})
    assert forged.text == "http" and "strict-transport-security" not in forged.headers


# -- Secure cookies --------------------------------------------------------------------------------
def _set_cookies(r: httpx.Response) -> dict[str, str]:
    return {h.split("=", 1)[0]: h for h in r.headers.get_list("set-cookie")}


def _secure(header: str) -> bool:
    return "secure" in [part.strip().lower() for part in header.split(";")]


@pytest.mark.parametrize("scheme", ["http", "https"])
async def test_every_cookie_is_secure_over_https_and_only_then(
    scheme: str, client: httpx.AsyncClient, https_client: httpx.AsyncClient
) -> None:
    c = https_client if scheme == "https" else client
    browser = Browser(c)
    seen: dict[str, str] = {}
    try:
        seen.update(_set_cookies(await browser.get("/")))  # the CSRF cookie
        game = await create_game(c, {"scenario": "duel"}, claim=[])
        seen.update(_set_cookies(await browser.form(f"/join/{game.invites['B']}", {})))
        other = Browser(c)
        await other.get("/")
        r = await other.form(f"/seat/{game.tokens['A']}", {})  # the seat page's confirmation
        assert r.status_code == 303
        seen.update({f"{k} (seat page)": v for k, v in _set_cookies(r).items()})
        await other.close()
        r = await browser.form("/referee/login", {"token": ADMIN})
        assert r.status_code == 303
        seen.update(_set_cookies(r))
        r = await browser.form("/referee/logout", {})
        seen.update({f"{k} (cleared)": v for k, v in _set_cookies(r).items()})
    finally:
        await browser.close()
    assert set(seen) == {
        "pd_csrf",
        "pd_browser",
        "pd_browser (seat page)",
        "pd_admin",
        "pd_admin (cleared)",
    }, sorted(seen)
    for name, header in seen.items():
        assert _secure(header) == (scheme == "https"), f"{name} over {scheme}: {header}"
        assert "httponly" in header.lower(), name


# -- the API reference -----------------------------------------------------------------------------
async def test_the_api_reference_is_the_vendored_pinned_swagger_ui(
    client: httpx.AsyncClient,
) -> None:
    """``/api/docs`` loads only files of this origin, each the pinned copy: the sha256 in
    static/vendor/README.md and the page's ``integrity`` (sha384) both match the file; the
    licence and notice are beside them."""
    r = await client.get("/api/docs")
    assert r.status_code == 200
    readme = (VENDOR / "README.md").read_text(encoding="utf-8")
    assert "swagger-ui-dist 5.35.0" in readme
    loaded = re.findall(r'(?:src|href)="([^"]+)"(?: integrity="([^"]+)")?', r.text)
    vendored = [(u, i) for u, i in loaded if u.startswith("/static/vendor/swagger-ui/")]
    assert {u for u, _ in vendored} == {
        "/static/vendor/swagger-ui/swagger-ui-bundle.js",
        "/static/vendor/swagger-ui/swagger-ui.css",
    }
    for url, integrity in vendored:
        data = (ROOT / url.lstrip("/")).read_bytes()
        assert integrity == "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()
        assert f"`{hashlib.sha256(data).hexdigest()}`" in readme, url
        served = await client.get(url)
        assert served.status_code == 200 and served.content == data
    assert not [u for u, _ in loaded if u.startswith(("http:", "https:", "//"))]
    for name in ("LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"):
        assert (VENDOR / "swagger-ui" / name).stat().st_size > 0
    assert "Apache License" in (VENDOR / "swagger-ui" / "LICENSE").read_text(encoding="utf-8")
