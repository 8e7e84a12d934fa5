"""Deeply nested JSON is refused before it is parsed (selected backend).

A JSON array nested a thousand deep made Python's parser raise ``RecursionError``: a 500 from
the designer's import, and from the API an unexplained 400. Every place that parses client JSON
(the designer's import, pasted or as a file; every API body: ``/designs/validate``, ``/designs``,
a game's ``sides`` with inline designs, commands) now refuses JSON nested deeper than
``MAX_JSON_DEPTH`` with a message that says so, and changes nothing. Designs need a depth of
four, a game body with inline designs nine.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.api.replay_check import assert_problem
from tests.conftest import ADMIN, LiveServer
from tests.web import Browser

API = "/api/v1"
ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}
MAX_JSON_DEPTH = 32  # the documented limit (docs/api.md, the designer page)
DEPTHS = [MAX_JSON_DEPTH + 1, 990, 5000, 30000]


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def import_error(page: str) -> str:
    m = re.search(r'<p class="error" role="alert" id="import-error">(.*?)</p>', page, re.S)
    assert m, page[:500]
    return m.group(1)


@pytest.fixture
async def browser(client: httpx.AsyncClient) -> Browser:
    b = Browser(client)
    await b.get("/designer")
    return b


async def test_a_deep_import_is_an_inline_error_pasted_or_as_a_file(browser: Browser) -> None:
    try:
        for depth in DEPTHS:
            for value in (nested(depth), '{"id": "x", "systems": ' + nested(depth) + "}"):
                fields = {"csrf": str(browser.csrf), "do_import": "1", "f_name": "Kept"}
                # pasted (as a multipart form, as the page sends it: 30000 levels fit in 64 KiB)
                r = await browser.http.post(
                    "/designer", data={**fields, "import_json": value}, files={"x": ("", b"")}
                )
                assert r.status_code == 422, (depth, r.status_code, r.text[:200])
                assert f"nested deeper than {MAX_JSON_DEPTH} levels" in import_error(r.text)
                assert 'value="Kept"' in r.text  # the form as it was
                # as a file
                r = await browser.http.post(
                    "/designer",
                    data=fields,
                    files={"import_file": ("deep.json", value.encode(), "application/json")},
                )
                assert r.status_code == 422, (depth, r.status_code, r.text[:200])
                assert f"nested deeper than {MAX_JSON_DEPTH} levels" in import_error(r.text)
        # at the limit the nesting itself is no problem (the design then is)
        r = await browser.form("/designer", {"do_import": "1", "import_json": nested(8)})
        assert r.status_code == 422 and "a design must be an object" in import_error(r.text)
    finally:
        await browser.close()


async def test_deep_api_bodies_are_422_saying_so_and_save_nothing(
    client: httpx.AsyncClient,
) -> None:
    design = '{"id": "x", "name": "X", "class": "c", "mass": 30, "thrust": 2, "hull": 5, '
    bodies = {
        f"{API}/designs/validate": lambda deep: design + '"systems": ' + deep + "}",
        f"{API}/designs": lambda deep: design + '"systems": ' + deep + "}",
        f"{API}/games": lambda deep: (
            '{"sides": {"A": {"ships": [{"name": "a", "design": '
            + design
            + '"systems": '
            + deep
            + '}}]}, "B": {"ships": [{"name": "b", "design": "frigate"}]}}}'
        ),
    }
    for depth in [MAX_JSON_DEPTH + 1, 990, 5000, 20000]:
        for path, body in bodies.items():
            for content in (nested(depth), body(nested(depth))):
                if len(content) > 64 * 1024:
                    continue
                r = await client.post(
                    path, content=content, headers={"Content-Type": "application/json"}
                )
                problem = assert_problem(r, 422, "invalid_request")
                assert f"nested deeper than {MAX_JSON_DEPTH} levels" in problem["detail"], problem
                # without a content type FastAPI reads the body as JSON too
                r = await client.post(path, content=content)
                assert_problem(r, 422, "invalid_request")
    r = await client.get(f"{API}/games", headers=ADMIN_AUTH)
    assert r.json()["games"] == []
    # a deep value inside a string is text, not nesting
    r = await client.post(
        f"{API}/designs/validate",
        content=design + '"systems": [], "note": "' + nested(500) + '"}',
        headers={"Content-Type": "application/json"},
    )
    assert_problem(r, 422, "invalid_design")
    assert "unknown field 'note'" in r.json()["detail"]


async def test_a_deep_import_on_a_live_server_is_answered(db_url: str, tmp_path: Path) -> None:
    """Through uvicorn: an answer (422 with the message), not a reset connection; the server
    goes on serving."""
    server = LiveServer(db_url, tmp_path / "data").start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            page = await http.get("/designer")
            csrf = re.search(r'name="csrf" value="([0-9a-f]{64})"', page.text)
            assert csrf
            for depth in (990, 30000):
                r = await http.post(
                    "/designer",
                    data={"csrf": csrf.group(1), "do_import": "1", "import_json": nested(depth)},
                    files={"x": ("", b"")},
                    headers={"Origin": server.url},
                )
                assert r.status_code == 422, (depth, r.status_code)
                assert "nested deeper than" in import_error(r.text)
                r = await http.post(
                    f"{API}/designs/validate",
                    content=nested(depth),
                    headers={"Content-Type": "application/json"},
                )
                assert r.status_code == 422, (depth, r.status_code)
            assert (await http.get("/healthz")).status_code == 200
    finally:
        server.stop()


# -- the depth count itself: brackets in strings are text, and no input makes it slow ----------
def test_brackets_inside_strings_and_escaped_quotes_do_not_count() -> None:
    from app.play.inputs import too_deep

    deep = "[" * (MAX_JSON_DEPTH + 1)
    assert too_deep(deep)
    assert not too_deep(f'{{"name": "{deep}"}}')  # inside a string: text
    assert not too_deep(f'{{"name": "a \\" {deep}"}}')  # an escaped quote does not close it
    assert too_deep('{"name": "a \\\\"}' + deep)  # an escaped backslash does: then brackets
    assert not too_deep('{"name": "never closed ' + deep)  # open string: the parser's to report


async def test_an_open_string_is_answered_at_once_not_backtracked(
    client: httpx.AsyncClient,
) -> None:
    """A body whose string never closes (or holds thousands of escaped quotes) once made the
    depth count backtrack exponentially: forty bytes stalled the worker's event loop before any
    authentication. It is one linear pass now, so these answers come back (a regression would
    hang this test rather than fail it quickly, which CI's time limit still catches)."""
    for body in (
        '{"name": "' + "a" * 60_000,
        '{"name": "' + '\\"' * 30_000,
        '"' + '\\"' * 30_000 + "]" * 100,
    ):
        response = await client.post(
            f"{API}/designs/validate",
            content=body.encode(),
            headers={"Content-Type": "application/json"},
        )
        assert 400 <= response.status_code < 500, response.text
