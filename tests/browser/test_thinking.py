"""A computer's turn whose step the server is slow to answer (its tables still being read
on a fresh machine, say) says that it is thinking, rather than freezing on its throw."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Route, expect

from browser.person import BOXES, PHONE, Person

ACTIONS = re.compile(r"/api/games/[^/]+/actions(\?|$)")


def test_a_slow_computer_step_says_that_the_computer_is_thinking(
    browser: Browser, base_url: str
) -> None:
    # No service worker: the page's own requests are the ones the test holds.
    context = browser.new_context(base_url=base_url, viewport=PHONE, service_workers="block")
    page = context.new_page()
    ali = Person(page)
    ali.open()
    ali.new_game("Yams", "Ali", computer=True, autofill="Kapalı")
    held: list[Route] = []

    def hold_the_first_computer_step(route: Route) -> None:
        body = route.request.post_data_json if route.request.method == "POST" else None
        if isinstance(body, dict) and body.get("type") == "computer" and not held:
            held.append(route)  # answered when the test says so
        else:
            route.continue_()

    page.route(ACTIONS, hold_the_first_computer_step)
    ali.throw()
    next(box for box in (ali.box(name) for name in BOXES) if box.is_enabled()).click()
    ali.act("Turu onayla")
    thinking = page.get_by_text("IA düşünüyor…")
    expect(thinking).to_be_visible()
    assert held
    expect(ali.button("At")).to_be_disabled()
    held[0].continue_()
    expect(thinking).to_be_hidden()
    ali.wait_for_turn("Ali")
    expect(thinking).to_be_hidden()
    page.unroute(ACTIONS)
    context.close()
