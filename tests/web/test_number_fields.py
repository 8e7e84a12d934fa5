"""Number fields of the page forms take ASCII digits only (selected backend).

``str.isdigit()`` and ``int()`` both accept more than ``0-9``, and not the same things: ``"²"`` is
a digit to the first and not a number to the second (it was a 500), ``"١"`` (Arabic-Indic one)
is a number to both. Every number a form sends is read as ASCII digits (with a sign where the
field takes one) or refused with an inline message, and nothing changes.
"""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import ADMIN
from tests.web import Browser, create_game, deploy_body, element, send, state_of
from tests.web.conftest import BrowserFactory
from tests.web.test_forms import act, deploy_fields, seated

# not ASCII digits, yet digits (or numbers) to Python: superscript two, Arabic-Indic one,
# fullwidth one, a digit string too long for any seq, a number with an underscore
NOT_ASCII = ["²", "١", "１", "1_0"]
TOO_BIG = "9" * 30


async def test_a_non_ascii_at_seq_is_an_inline_error_and_changes_nothing(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    b = await seated(client, new_browser, game)
    before = await state_of(client, game)
    for value in [*NOT_ASCII, TOO_BIG, "-1"]:
        for htmx in (False, True):
            fields = {**deploy_fields("a1", (30.5, 4.5), 0, 4), "at_seq": value}
            r = await act(b["A"], game, "deploy-form", fields, htmx=htmx)
            assert r.status_code == 422, (value, r.status_code, r.text[:300])
            assert "at seq" in element(r.text, "action-error"), element(r.text, "action-error")
            assert await state_of(client, game) == before, value


@pytest.mark.parametrize("field", ["heading_a1", "speed_a1"])
async def test_non_ascii_whole_numbers_in_orders_are_refused(
    client: httpx.AsyncClient, new_browser: BrowserFactory, field: str
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    b = await seated(client, new_browser, game)
    before = await state_of(client, game)
    for value in [*NOT_ASCII, TOO_BIG]:
        fields = {**deploy_fields("a1", (30.5, 4.5), 0, 4), field: value}
        r = await act(b["A"], game, "deploy-form", fields)
        assert r.status_code == 422, (value, r.status_code)
        assert "whole number" in element(r.text, "action-error"), value
        assert await state_of(client, game) == before, value


async def test_non_ascii_or_endless_coordinates_are_refused(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    b = await seated(client, new_browser, game)
    before = await state_of(client, game)
    for value in ["３0.5", "٣٠", "inf", "-Infinity", "nan", "1e999", "3_0.5"]:
        fields = {**deploy_fields("a1", (30.5, 4.5), 0, 4), "x_a1": value}
        r = await act(b["A"], game, "deploy-form", fields)
        assert r.status_code == 422, (value, r.status_code)
        assert "must be a number" in element(r.text, "action-error"), value
        assert await state_of(client, game) == before, value


async def test_a_non_ascii_rewind_point_is_an_inline_error_and_changes_nothing(
    client: httpx.AsyncClient,
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    await send(client, game, "A", deploy_body("a1", (30.5, 4.5), 0, 4))
    await send(client, game, "B", deploy_body("b1", (40.5, 44.5), 6, 4))
    admin = Browser(client)
    try:
        assert (await admin.form("/referee/login", {"token": ADMIN})).status_code == 303
        before = await state_of(client, game)
        for value in [*NOT_ASCII, TOO_BIG, "-1", ""]:
            r = await admin.form(
                f"/games/{game.id}/referee/rewind",
                {"to_seq": value, "reason": "test", "confirm": "yes"},
            )
            assert r.status_code == 422, (value, r.status_code, r.text[:300])
            assert "choose the command to rewind to" in element(r.text, "action-error"), value
            assert await state_of(client, game) == before, value
        # an ASCII seq still rewinds
        fields = {"to_seq": "1", "reason": "ok", "confirm": "yes"}
        r = await admin.form(f"/games/{game.id}/referee/rewind", fields)
        assert r.status_code == 303, r.text
    finally:
        await admin.close()


@pytest.mark.parametrize("button", ["sys_remove", "sys_up", "sys_down"])
async def test_a_non_ascii_system_index_in_the_designer_is_no_error(
    client: httpx.AsyncClient, button: str
) -> None:
    browser = Browser(client)
    try:
        await browser.get("/designer")
        fields = [
            ("f_id", "x"),
            ("f_name", "X"),
            ("f_class", "frigate"),
            ("f_mass", "30"),
            ("f_thrust", "4"),
            ("f_hull", "8"),
            ("sys-0-type", "beam"),
            ("sys-0-id", "beam-1"),
            ("sys-0-class", "1"),
            ("sys-1-type", "screen"),
            ("sys-1-id", "screen-1"),
            ("sys-1-level", "1"),
        ]
        for value in [*NOT_ASCII, "²"]:
            r = await browser.form("/designer", [*fields, (button, value)])
            assert r.status_code == 200, (value, r.status_code)
            # nothing was removed or moved: both systems, in their order
            assert r.text.index('value="beam-1"') < r.text.index('value="screen-1"'), value
        # a designer number field: an Arabic-Indic mass is not a number
        r = await browser.form(
            "/designer/summary", [(k, "٣٠" if k == "f_mass" else v) for k, v in fields]
        )
        assert r.status_code == 200
        assert "mass must be a whole number" in r.text, r.text
    finally:
        await browser.close()
