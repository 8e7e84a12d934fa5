""" "Learn to play" in Chromium (issue 17): the lobby's button starts a duel against the cadet (its
delays at 0) whose page explains each step as it comes — deployment at once, then naming a ship
and move-or-ping when the orders form first shows, overwatch after the move — each lesson once:
a reload does not repeat it, and "Stop the lessons" holds the next one back until resumed. An
ordinary game against the computer shows no lesson (and gets the ordinary tour instead). On a
phone with reduced motion the lesson fits the screen and axe finds nothing serious in it."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import TIMEOUT_MS, OpenPage
from tests.browser.test_every_page import _axe, _overflow
from tests.conftest import LiveServer


@pytest.fixture
def quick_server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose computer answers at once (its release delays scaled to 0)."""
    server = LiveServer(db_url, tmp_path / "data", PINGDUEL_COMPUTER_DELAY_SCALE="0").start()
    try:
        yield server
    finally:
        server.stop()


def lesson(page: Page) -> Locator:
    return page.get_by_role("dialog", name="Lesson")


def scripts_ran(page: Page) -> None:
    """tour.js is in and guide.js has looked (it looks as soon as tour.js has loaded)."""
    page.wait_for_function("() => window.pingduelTour !== undefined")
    page.wait_for_function("() => document.querySelectorAll('.htmx-request').length === 0")


def start_guided(page: Page, server: LiveServer) -> None:
    page.goto(f"{server.url}/")
    page.get_by_role("button", name="Learn to play: a guided first duel").click()
    page.wait_for_url(re.compile(r"/games/[a-z0-9]+$"))


def until_orders(page: Page) -> None:
    """Answer what comes (a fire window when the cadet pings: hold) until the orders form
    offers a ship to name; a lesson on the way (the fire window's) is closed."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    ship_choice = page.locator("#orders-form input[name=ship][type=radio]")
    while ship_choice.count() == 0:
        assert time.monotonic() < deadline, page.locator("#controls").inner_text()
        if page.locator("#tour-title").count():
            title = page.locator("#tour-title").inner_text()
            if title in ("A fire window", "Dice and hits", "Damage"):
                page.keyboard.press("Escape")
        hold = page.locator("#fire-form button[data-hold]")
        if hold.count():
            hold.click()
        page.wait_for_timeout(200)


def test_the_guided_duel_teaches_each_step_once(
    open_page: OpenPage, quick_server: LiveServer
) -> None:
    page = open_page(tour=True)  # a browser new to the game page: its tour would come
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    start_guided(page, quick_server)

    # deployment, at once: the zone boxed on the map, a link to the rules; not the page's tour
    box = lesson(page)
    expect(box).to_be_visible()
    expect(page.locator("#tour-title")).to_have_text("Your deployment zone")
    expect(page.locator("#tour-title")).to_be_focused()
    expect(page.locator("#tour-count")).to_have_text("Step 1 of 2")
    expect(page.locator("#tour .tour-more a")).to_have_attribute("href", "/help#deploy")
    expect(page.locator(".tour-ring")).to_be_visible()
    page.locator("#tour").get_by_role("button", name="Next").click()
    expect(page.locator("#tour-title")).to_have_text("Heading and speed")
    expect(page.get_by_role("dialog", name="Tour of the game page")).to_have_count(0)

    # a reload: the deployment lesson is not repeated
    page.reload()
    scripts_ran(page)
    expect(page.locator("#deploy-form")).to_be_visible()
    expect(page.locator("#tour")).to_have_count(0)
    expect(page.locator("#lessons-toggle")).to_have_text("Stop the lessons")

    # deploy through the form; the cadet deploys too, and the orders form brings two lessons
    page.get_by_role("button", name="Deploy in secret").click()
    until_orders(page)
    expect(page.locator("#tour-title")).to_have_text("Your activation: name a ship")
    expect(page.locator("#tour .tour-more a")).to_have_attribute("href", "/help#turn")
    page.locator("#tour").get_by_role("button", name="Next").click()
    expect(page.locator("#tour-title")).to_have_text("Secret orders")
    page.locator("#tour").get_by_role("button", name="Next").click()
    expect(page.locator("#tour-title")).to_have_text("Move, or ping first")
    expect(page.locator("#tour-text")).to_contain_text("shows your own ship")
    expect(page.locator("#tour .tour-more a")).to_have_attribute("href", "/help#ping")
    page.locator("#tour").get_by_role("button", name="Finish").click()
    expect(page.locator("#tour")).to_have_count(0)

    page.reload()
    scripts_ran(page)
    expect(page.locator("#move-button")).to_be_visible()
    expect(page.locator("#tour")).to_have_count(0)

    # lessons stopped: the move's next step comes quietly; resumed, its lesson shows
    page.locator("#lessons-toggle").click()
    expect(page.locator("#lessons-toggle")).to_have_text("Resume the lessons")
    page.locator("#move-button").click()
    end = page.locator("#controls button[value=end_activation]")
    expect(end).to_be_visible()
    scripts_ran(page)
    expect(page.locator("#tour")).to_have_count(0)
    page.locator("#lessons-toggle").click()
    expect(page.locator("#tour-title")).to_have_text("Stay quiet: overwatch")
    expect(page.locator("#tour .tour-more a")).to_have_attribute("href", "/help#overwatch")
    # "Stop the lessons" in the lesson itself closes it and turns them off
    page.locator("#tour").get_by_role("button", name="Stop the lessons").click()
    expect(page.locator("#tour")).to_have_count(0)
    expect(page.locator("#lessons-toggle")).to_have_text("Resume the lessons")
    assert not problems, problems

    # an ordinary game against the computer: no lessons, the page's own tour instead
    page.goto(f"{quick_server.url}/")
    page.locator("#quick-opponent").select_option("cadet")
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(re.compile(r"/games/[a-z0-9]+$"))
    expect(page.get_by_role("dialog", name="Tour of the game page")).to_be_visible()
    expect(lesson(page)).to_have_count(0)
    expect(page.locator("#lessons-toggle")).to_have_count(0)
    assert page.locator("#live[data-guided]").count() == 0


def test_a_lesson_on_a_phone_with_reduced_motion(
    browser: Browser, quick_server: LiveServer
) -> None:
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        start_guided(page, quick_server)
        expect(lesson(page)).to_be_visible()
        expect(page.locator("#tour-title")).to_have_text("Your deployment zone")
        inside = page.evaluate(
            """() => {
                const r = document.getElementById("tour").getBoundingClientRect();
                return r.left >= 0 && r.right <= innerWidth && r.top >= 0
                    && r.bottom <= innerHeight;
            }"""
        )
        assert inside, "the lesson sticks out of the phone's screen"
        ring = page.evaluate(
            "() => getComputedStyle(document.querySelector('.tour-ring')).transitionDuration"
        )
        assert ring in ("0s", ""), ring
        assert _axe(page) + _overflow(page) == []
    finally:
        context.close()


def step(page: Page) -> str:
    """One answer through the page's forms, whatever the page asks: deploy standing still,
    ping before moving, stand still, fire every weapon at its first target or hold; the name
    of what was done ("" when it is not the player's move)."""
    controls = page.locator("#controls")
    if page.locator("#deploy-form").count():
        for speed in page.locator("#deploy-form input[name^=speed_]").all():
            speed.fill("0")  # at speed 0 the ship never drifts off the table
        controls.get_by_role("button", name="Deploy in secret").click()
        return "deploy"
    if page.locator("#fire-form").count():
        for weapon in page.locator("#fire-form fieldset.weapon-choice").all():
            weapon.locator(".shot-option:not(.hold-option) input[type=radio]").first.check()
        fire = page.locator("#fire-form").get_by_role("button", name="Fire the chosen shots")
        if fire.count():
            fire.click()
            return "fire"
        page.locator("#fire-form button[data-hold]").click()
        return "hold"
    for what, button in (
        ("ping", "#orders-form button[value=ping]"),
        ("move", "#move-button"),
        ("end", "#controls button[value=end_activation]"),
        ("drift", "#controls .drift-form button"),
    ):
        if page.locator(button).count():
            page.locator(button).first.click()
            return what
    return ""


def test_a_guided_game_against_the_computer_reaches_the_end_in_the_browser(
    open_page: OpenPage, quick_server: LiveServer
) -> None:
    """The whole duel played through the page's forms (never a resignation) until the status
    says finished; the lessons met on the way are closed as they come, the last one the end's."""
    page = open_page()
    page.set_default_timeout(10_000)  # a click a lesson covers is retried, not waited on
    start_guided(page, quick_server)
    titles: list[str] = []
    done: list[str] = []
    deadline = time.monotonic() + 240
    status = page.locator("#status")
    while status.get_attribute("data-status") != "finished":
        assert time.monotonic() < deadline, (done[-20:], page.locator("#controls").inner_text())
        if page.locator("#tour-title").count():
            titles.append(page.locator("#tour-title").inner_text())
            page.keyboard.press("Escape")
        page.wait_for_function("() => document.querySelectorAll('.htmx-request').length === 0")
        try:
            what = step(page)
        except PlaywrightTimeoutError:
            # a lesson came up over the button between the look and the click (the computer's
            # move arrived): it is closed at the top of the loop, then the step is taken again
            continue
        if what:
            done.append(what)
            page.wait_for_function("() => document.querySelectorAll('.htmx-request').length === 0")
        else:
            page.wait_for_timeout(150)
    assert "resign" not in done and done.count("move") >= 1, done
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#tour-title")).to_have_text("The end")
    assert {"Your deployment zone", "Your activation: name a ship"} <= set(titles), titles
