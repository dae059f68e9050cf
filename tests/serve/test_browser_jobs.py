"""A draft's life in headless Chromium on a tiny random Drafter slowed by many steps: a reload mid-draft reattaches
to the job and shows its result, cancel shows "Cancelling" at once and ends in <= 2 s, two browsers' drafts queue
(the second told its place) and both finish, the first showing at least 10 distinct progress updates. Skipped when
Chromium or Playwright is not installed."""

import shutil
import time

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (apt-get install -y chromium)")

from _workbench import drafter, serving  # noqa: E402, F401 (fixtures)

WATCH_NOW = """() => { window.seen = new Set(); const now = document.querySelector('#now');
  new MutationObserver(() => window.seen.add(now.textContent)).observe(now, {childList: true, characterData: true,
  subtree: true}); }"""


@pytest.fixture
def slow(drafter):
    """A server whose drafts take 48 steps per variant: (its URL, the app)."""
    from hybrid.cli.serve import LOOPBACK_NAMES
    from hybrid.serve.app import create_app

    app = create_app(lambda library: drafter, defaults={"steps": 48}, allowed_hosts=LOOPBACK_NAMES)
    with serving(app) as url:
        yield url, app


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _open(browser, url):
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.goto(url + "/")
    page.wait_for_selector("#fields input[name='party_a']")
    page.click("#example")
    return page


def _drafting(browser, url, n: int):
    """A page whose draft of n variants has reached its fill steps."""
    page = _open(browser, url)
    page.fill("#n", str(n))
    page.click("#draft")
    page.wait_for_selector("#stages li.stage-fill", timeout=60_000)
    return page


def test_progress_counts_and_a_reload_reattaches_to_the_draft(slow, browser):
    url, app = slow
    page = _drafting(browser, url, 4)
    job = page.evaluate("location.hash").removeprefix("#job=")
    assert app.state.jobs.get(job).state == "running"
    page.reload()  # mid-draft: the page finds its job in the URL and follows it again
    page.wait_for_selector("#fields input[name='party_a']")
    assert page.input_value("#field-party_a") != ""  # the form as it was typed
    page.wait_for_selector("#variants thead th.variant", timeout=120_000)
    assert page.locator("#variants thead th.variant").count() == 4
    assert page.locator("#history-list li").count() == 1 and page.evaluate("location.hash") == f"#job={job}"


def test_cancel_answers_at_once_and_ends_within_two_seconds(slow, browser):
    url, app = slow
    page = _drafting(browser, url, 8)
    # every text the button shows: a cancel that ends in milliseconds puts "Cancel" back before a read could see it
    page.evaluate("""() => { const b = document.querySelector('#cancel'); window.labels = [];
      new MutationObserver(() => window.labels.push([b.textContent, b.disabled])).observe(b,
      {childList: true, characterData: true, subtree: true, attributes: true}); }""")
    t = time.monotonic()
    page.click("#cancel")
    page.wait_for_selector("#stages li.stage-end", timeout=10_000)
    took = time.monotonic() - t
    assert page.evaluate("window.labels")[0] == ["Cancelling…", True]  # what the click showed first, at once
    print(f"cancel took {took * 1000:.0f} ms")
    assert took <= 2 and page.inner_text("#stages li.stage-end").startswith("cancelled")
    assert not page.is_disabled("#draft")


def test_two_browsers_drafts_queue_and_both_finish(slow, browser):
    url, app = slow
    first, second = _open(browser, url), _open(browser, url)  # two contexts: two users
    first.fill("#n", "4")
    first.evaluate(WATCH_NOW)
    first.click("#draft")
    first.wait_for_selector("#stages li", timeout=60_000)
    second.fill("#n", "1")
    second.click("#draft")
    second.wait_for_function("document.querySelector('#now').textContent.startsWith('queued: place 1')",
                             timeout=10_000)
    assert second.locator("#cancel").is_enabled() and not first.evaluate("localStorage.getItem('hybrid.jobs')") \
        == second.evaluate("localStorage.getItem('hybrid.jobs')")
    for page, n in ((first, 4), (second, 1)):
        page.wait_for_selector("#variants thead th.variant", timeout=120_000)
        assert page.locator("#variants thead th.variant").count() == n
    seen = first.evaluate("[...window.seen]")  # a 4-variant draft's progress line, each distinct text it showed
    assert len(seen) >= 10, seen
    assert any(s.startswith("ranking: variant") for s in seen) and any(s.startswith("fill: step") for s in seen)
