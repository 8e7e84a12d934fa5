"""A group's destination set by dragging (issue 13: "orders by clicking or dragging"): in step
2 A drags its own group's icon on the map to where it should fly, the form's fields follow the
pointer and the row says where it flies; dragging the destination point again moves it; a drag
that starts on empty map pans the map and leaves the order alone; the order sent is the
dragged point. The activation order follows the game's seed (read from the referee's view)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import OpenPage, Referee, eventually, screen_point, settled
from tests.browser.test_fighters_page import LAUNCH_AWAY, Carrier
from tests.conftest import LiveServer

FIRST = (33.0, 10.0)  # 3.6 mu from the launch point
THEN = (40.0, 4.0)  # 10.0 mu from it: within the group's 24


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*screen_point(page, *start))
    page.mouse.down()
    for i in range(1, 6):  # several moves, as a hand makes them
        f = i / 5
        x = start[0] + (end[0] - start[0]) * f
        y = start[1] + (end[1] - start[1]) * f
        page.mouse.move(*screen_point(page, x, y))
    page.mouse.up()


def test_a_groups_destination_is_dragged_on_the_map(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game = Carrier(live_server, referee)
    game.b_stays()
    launch = {"bay": "fb-1", "to": {"x": LAUNCH_AWAY[0], "y": LAUNCH_AWAY[1]}}
    game.send("A", {"type": "activate", "ship": "a1"})
    game.send("A", {"type": "markers", "ship": "a1", "orders": [], "launch": [launch]})
    game.a_ends()
    group = game.group()
    assert group is not None
    gid = group["id"]
    for _ in range(3):
        game.b_stays()
    assert game.phase()["side"] == "A", game.phase()

    a = game.page(open_page, "A")
    a.locator('#orders-form button[value="activate"]').click()
    order = a.locator(f'#markers-form .group-order[data-order="{gid}"]')
    expect(order).to_be_visible()
    settled(a, referee.events(game.id)[-1]["seq"])
    to_x = order.locator(f'input[name="to_x@{gid}"]')
    to_y = order.locator(f'input[name="to_y@{gid}"]')

    # a drag from empty map pans it and sets nothing
    drag(a, (60.0, 20.0), (55.0, 18.0))
    expect(to_x).to_have_value("")
    # the group's icon dragged: the destination follows, the row says so
    drag(a, LAUNCH_AWAY, FIRST)
    assert abs(float(to_x.input_value()) - FIRST[0]) <= 0.3, to_x.input_value()
    assert abs(float(to_y.input_value()) - FIRST[1]) <= 0.3, to_y.input_value()
    expect(order.locator(".marker-check")).to_contain_text("Flies to")
    # the destination point dragged again
    drag(a, (float(to_x.input_value()), float(to_y.input_value())), THEN)
    assert abs(float(to_x.input_value()) - THEN[0]) <= 0.3, to_x.input_value()
    assert abs(float(to_y.input_value()) - THEN[1]) <= 0.3, to_y.input_value()
    sent = (float(to_x.input_value()), float(to_y.input_value()))
    a.locator("#markers-form button.primary").click()
    expect(a.locator("#orders-form")).to_be_visible()

    # the orders form may show before the move's answer has come: wait for the group to move
    def at_sent() -> dict[str, Any] | None:
        group = game.group()
        return group if group and (group["position"]["x"], group["position"]["y"]) == sent else None

    eventually(at_sent, game.group)
