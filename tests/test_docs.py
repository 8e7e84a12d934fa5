"""The documentation stands on its own and says what the code does.

docs/api.md lists every error code the server can answer with, at the status it really has (the
list is read from the code, so a new code cannot go undocumented); the interactive docs say where
that contract lives; and no document sends a reader to files a clone does not have.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import httpx
import pytest

import app
from app import problems
from app.config import Settings
from app.main import create_app
from app.play.errors import RULES_STATUS, Problem
from app.rules.errors import RulesError
from scripts.render_systems import render_markdown

ROOT = Path(__file__).resolve().parents[1]
API_DOC = ROOT / "docs" / "api.md"
OWN_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# files that live only beside the project's own checkout, never in a clone of it
OUTSIDE = ("../shared", "/work/shared", "RULES.md", "API.md", "DESIGN.md", "PITFALLS.md", "RULES §")


def _subclasses(cls: type) -> set[type]:
    out = {cls}
    for sub in cls.__subclasses__():
        out |= _subclasses(sub)
    return out


def _literal_problem_bodies() -> dict[str, set[int]]:
    """Codes written out as ``problem_body(status, "code", …)`` and the framework's fallbacks."""
    found: dict[str, set[int]] = {}
    for path in sorted((ROOT / "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            args = node.args
            if name == "problem_body" and len(args) >= 2 and isinstance(args[1], ast.Constant):
                status = args[0].value if isinstance(args[0], ast.Constant) else None
                found.setdefault(args[1].value, set()).add(status)
            # ``_HTTP_CODES.get(status, (code, title))``: the code of any other HTTP status
            if (
                name == "get"
                and isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "_HTTP_CODES"
                and len(args) == 2
                and isinstance(args[1], ast.Tuple)
            ):
                code = args[1].elts[0]
                assert isinstance(code, ast.Constant)
                found.setdefault(code.value, set()).add(None)
    return found


def codes_in_code() -> dict[str, set[int | None]]:
    """Every problem ``code`` the server can answer with, and its HTTP status(es); ``None``
    where the status is not fixed (it is whatever the framework raised)."""
    for module in pkgutil.walk_packages(app.__path__, "app."):
        importlib.import_module(module.name)  # every error class defined anywhere in app/
    codes: dict[str, set[int | None]] = {}
    for cls in _subclasses(Problem):
        codes.setdefault(cls.code, set()).add(cls.status)
    for cls in _subclasses(RulesError):
        codes.setdefault(cls.code, set()).add(RULES_STATUS.get(cls.kind, 422))
    for status, (code, _) in problems._HTTP_CODES.items():
        codes.setdefault(code, set()).add(status)
    for code, statuses in _literal_problem_bodies().items():
        codes.setdefault(code, set()).update(statuses)
    return codes


def codes_in_doc() -> dict[str, str]:
    """The rows of docs/api.md's error table: code → the HTTP column."""
    text = API_DOC.read_text(encoding="utf-8")
    section = text.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \|", section, flags=re.MULTILINE)
    return {code: status.strip() for code, status in rows}


def test_the_code_has_error_codes_to_check() -> None:
    codes = codes_in_code()
    # a few from each source, so that a broken collector cannot pass by finding nothing
    for code in ("unknown_game", "not_your_turn", "csrf_failed", "malformed_json", "not_ready"):
        assert code in codes


def test_every_error_code_is_in_the_api_doc_at_its_status() -> None:
    documented = codes_in_doc()
    for code, statuses in sorted(codes_in_code().items()):
        assert code in documented, f"docs/api.md's error table lacks `{code}`"
        fixed = {s for s in statuses if s is not None}
        if fixed:
            assert documented[code] in {str(s) for s in fixed}, (
                f"`{code}` is HTTP {sorted(fixed)} in the code, {documented[code]} in docs/api.md"
            )
        else:
            assert documented[code] == "other", code


def test_the_api_doc_lists_no_code_the_server_lacks() -> None:
    extra = sorted(set(codes_in_doc()) - set(codes_in_code()))
    assert not extra, f"docs/api.md lists codes the code never answers with: {extra}"


async def test_the_interactive_docs_point_to_docs_api_md(tmp_path: Path) -> None:
    app_ = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"))
    transport = httpx.ASGITransport(app=app_)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        docs = await client.get("/api/docs")
        spec = await client.get("/api/v1/openapi.json")
    assert docs.status_code == 200
    assert "/api/v1/openapi.json" in docs.text  # the page renders this document
    assert "docs/api.md" in spec.json()["info"]["description"]


def test_the_readme_links_the_api_doc() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/api.md)" in readme
    assert API_DOC.is_file()


@pytest.mark.parametrize("path", OWN_DOCS, ids=lambda p: p.name)
def test_no_document_points_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not [needle for needle in OUTSIDE if needle in text]


def test_the_rendered_systems_table_points_nowhere_outside() -> None:
    text = render_markdown()
    assert not [needle for needle in OUTSIDE if needle in text]


def test_the_readme_names_both_source_documents() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert '"FT Pinging"' in readme
    assert '"Full Thrust: Systems Compendium"' in readme


# a Markdown link or image: [text](target) with a relative target (no scheme, no bare anchor)
_LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)\s]+)\)")


@pytest.mark.parametrize("path", OWN_DOCS, ids=lambda p: p.name)
def test_every_relative_link_names_a_file_in_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    missing = []
    for target in _LINK.findall(text):
        local = target.split("#", 1)[0]
        if local.startswith("/"):  # a path on the running server, not a file
            continue
        if local and not (path.parent / local).exists():
            missing.append(target)
    assert not missing, missing
