"""The page's deploy form after a referee's rewind (API.md "Referee", "Idempotency").

A rewind that voids a side's deployment asks it to deploy again. The page's deploy form keys
its command by the seq it answers (the deployment the game asks for now), so the new form's
key is not the voided one — a retry of a voided command's key is refused as
``command_voided`` for ever — while the other side's deployment does not change the form
(a half-filled deployment must not be reset: the controls block stays the same, 204; so the
resign form in the same block has a fixed key: a resignation ends the game, no rewind voids it).
"""

from __future__ import annotations

import re

import httpx

from tests.conftest import ADMIN
from tests.web import create_game, element, hidden_fields
from tests.web.conftest import BrowserFactory
from tests.web.test_forms import act, deploy_fields, seated

ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}


def block_key(html: str, name: str) -> str:
    """The key a page hands the block ``name`` for its next refresh."""
    m = re.search(rf'hx-get="/games/[^"]+/fragments/{name}".*?"key": "([0-9a-f]+)"', html, re.S)
    assert m, f"no key for the {name} block"
    return m.group(1)


async def test_a_side_whose_deployment_was_voided_deploys_again_from_the_page(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel", "creator": "A"})
    b = await seated(client, new_browser, game)
    keys = {}
    for seat, ship, pos, heading in (("A", "a1", (20.5, 4.5), 0), ("B", "b1", (50.5, 44.5), 6)):
        page = (await b[seat].page(game.id)).text
        keys[seat] = hidden_fields(page, "deploy-form")["idem"]
        r = await act(b[seat], game, "deploy-form", deploy_fields(ship, pos, heading, 4), page=page)
        assert r.status_code == 303, r.text

    # the referee voids both deployments
    log = (await client.get(f"{game.path}/record", headers=ADMIN_AUTH)).json()["events"]
    first = min(e["seq"] for e in log if e["type"] == "deployed")
    r = await client.post(
        f"{game.path}/referee/rewind",
        json={"to_seq": first - 1, "reason": "both deployed in the wrong zone"},
        headers=ADMIN_AUTH,
    )
    assert r.status_code == 200, r.text
    assert sorted(r.json()["phase"]["awaiting"]) == ["A", "B"]

    # each page offers the deployment again, under a new key, and it goes through
    for seat, ship, pos, heading in (("A", "a1", (22.5, 5.5), 0), ("B", "b1", (48.5, 43.5), 6)):
        page = (await b[seat].page(game.id)).text
        assert 'id="deploy-form"' in page, seat
        r = await act(b[seat], game, "deploy-form", deploy_fields(ship, pos, heading, 4), page=page)
        assert r.status_code == 303, (seat, r.status_code, element(r.text, "action-error"))
        assert hidden_fields(page, "deploy-form")["idem"] != keys[seat], seat
        after = (await b[seat].page(game.id)).text
        assert 'id="deploy-form"' not in after, seat
    view = (await client.get(game.path, headers=ADMIN_AUTH)).json()
    assert view["phase"]["step"] != "deploy" and view["turn"] == 1, view["phase"]
    a1 = next(s for s in view["ships"] if s["id"] == "a1")
    assert a1["position"] == {"x": 22.5, "y": 5.5}


async def test_the_other_sides_deployment_leaves_the_deploy_form_as_it_is(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel", "creator": "A"})
    b = await seated(client, new_browser, game)
    page = (await b["A"].page(game.id)).text
    controls = block_key(page, "controls")
    r = await act(b["B"], game, "deploy-form", deploy_fields("b1", (50.5, 44.5), 6, 4))
    assert r.status_code == 303, r.text
    # the controls block is unchanged (204): htmx keeps A's half-filled form
    assert (await b["A"].fragment(game.id, "controls", controls)).status_code == 204
    r = await act(b["A"], game, "deploy-form", deploy_fields("a1", (20.5, 4.5), 0, 4), page=page)
    assert r.status_code == 303, r.text
    assert (await client.get(game.path, headers=ADMIN_AUTH)).json()["turn"] == 1
