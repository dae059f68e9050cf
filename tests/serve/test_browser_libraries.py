"""A library added from the page while the server runs is offered at once and drafts without a restart, in headless
Chromium: the contract chosen in the browser becomes clauses, the draft cites its file, and a redline strikes the
contract's own words (its parties' names), never the deal's. Skipped when Chromium or Playwright is not installed."""

import shutil

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (apt-get install -y chromium)")

from _workbench import CONTRACT, NDA, drafter, live_library, serving  # noqa: E402, F401 (fixtures)


@pytest.fixture
def live_server(drafter, tmp_path, monkeypatch):  # noqa: F811
    from hybrid.cli.serve import LOOPBACK_NAMES
    from hybrid.serve.app import create_app
    from hybrid.serve.libraries import Libraries, drafters

    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    app = create_app(drafters(drafter, live_library), defaults={"steps": 2}, libraries=Libraries(),
                     allowed_hosts=LOOPBACK_NAMES)
    with serving(app) as url:
        yield url


def test_a_library_added_on_the_page_drafts_without_a_restart(live_server, tmp_path):
    contract = tmp_path / "pelican-nda.txt"
    contract.write_text(CONTRACT)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        page.goto(live_server + "/")
        page.wait_for_selector("#library-list li[data-library='shipped']", state="attached")
        assert page.locator("#library option").all_inner_texts() == ["shipped"]
        page.click("#libraries summary")
        page.fill("#library-name", "pelican")
        page.set_input_files("#library-files", str(contract))
        page.click("#library-add-button")
        page.wait_for_selector("#library-list li[data-library='pelican']")
        assert "pelican-nda.txt: 3" in page.inner_text("#library-status")
        assert page.input_value("#library") == "pelican"  # chosen for the next draft
        page.click("#example")
        page.fill("#n", "1")
        page.click("#draft")
        page.wait_for_selector("#variants tbody tr", timeout=60_000)
        sources = " ".join(page.locator("#variants .source").all_inner_texts())
        assert "pelican-nda.txt, section" in sources and "library:pelican" in sources
        struck = []
        for button in page.locator("button.show-redline").all():
            button.click()
        struck = " ".join(page.locator(".redline del").all_inner_texts())
        assert "Pelican" in struck and NDA.example["party_a"] not in struck
        page.locator("#library-list li[data-library='pelican'] button.remove-library").click()
        page.wait_for_selector("#library-list li[data-library='pelican']", state="detached")
        assert page.locator("#library option").all_inner_texts() == ["shipped"]
        browser.close()
