"""A finished draft's review in headless Chromium (Debian's `chromium`, driven by Playwright): a section edited in place
survives a reload and goes into the download, a save that fails keeps what was typed (in the box and across a
reload), each change of the redline accepted or rejected (rejected: the precedent's words back in the section), and a
section's precedent opened in its own file with the passage marked. Skipped without Chromium or Playwright."""

import shutil

import docx
import pytest

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (apt-get install -y chromium)")

from _workbench import drafter, make_app, server, small_library  # noqa: E402, F401 (fixtures)

ADDED = "The Recipient shall report any loss of Confidential Information within five days."
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@pytest.fixture
def drafted(server):
    """A page whose 2-variant draft is done and drawn as reviewed: (page, base URL, app)."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 900}).new_page()
        page.on("pageerror", lambda e: print("PAGEERROR", e))
        page.goto(server[0] + "/")
        page.wait_for_selector("#fields input[name='party_a']")
        page.click("#example")
        page.fill("#n", "2")
        page.click("#draft")
        page.wait_for_selector("#compare[data-reviewed]", timeout=60_000)
        yield page, server[0], server[1]
        browser.close()


def _cell(page, row: int, rank: int = 1):
    return page.locator("#variants tbody tr").nth(row).locator(f"td.clause[data-rank='{rank}']")


def _reload(page):
    page.reload()
    page.wait_for_selector("#compare[data-reviewed]", timeout=30_000)


def _row_with_redline(page) -> int:
    rows = page.locator("#variants tbody tr")
    return next(i for i in range(rows.count()) if _cell(page, i).locator("button.show-redline").count())


def test_an_edit_survives_a_reload_goes_into_the_download_and_a_failed_save_loses_nothing(drafted, tmp_path):
    page, base, app = drafted
    i = _row_with_redline(page)
    cell = _cell(page, i)
    engine = cell.locator(".body").inner_text()
    cell.locator("button.edit-section").click()
    page.route("**/api/drafts/*/variants/*/sections/*", lambda route: route.abort())  # the server unreachable
    cell.locator("textarea.editor").fill(engine + "\n\n" + ADDED)
    cell.locator("button.save-edit").click()
    cell.locator(".edit-error").wait_for(state="visible")
    assert "did not answer" in cell.locator(".edit-error").inner_text()
    assert cell.locator("textarea.editor").input_value().endswith(ADDED)  # still in the box
    _reload(page)  # and in this browser: the box opens again with it, said to be unsaved
    cell = _cell(page, i)
    assert cell.locator("textarea.editor").input_value().endswith(ADDED)
    assert cell.locator(".unsaved-note").inner_text().startswith("Not saved yet")
    page.unroute("**/api/drafts/*/variants/*/sections/*")
    cell.locator("button.save-edit").click()
    page.wait_for_selector("td.clause .body.edited")
    _reload(page)  # kept with the job on the server
    cell = _cell(page, i)
    assert cell.locator(".body").inner_text().endswith(ADDED) and cell.locator("textarea.editor").count() == 0
    cell.locator("button.show-redline").click()
    mine = cell.locator(".change.by-you ins")
    assert mine.count() == 1 and mine.inner_text().strip() == ADDED  # the redline shows the edit as the lawyer's
    assert ADDED in page.locator("#preview-doc").text_content()  # the assembled document as it will download
    page.check("#redline-docx")
    with page.expect_download() as dl:
        page.click("#download")
    dl.value.save_as(tmp_path / "reviewed.docx")
    body = docx.Document(str(tmp_path / "reviewed.docx")).element.body
    ins = [(e.get(f"{W}author"), "".join(t.text for t in e.iter(f"{W}t"))) for e in body.iter(f"{W}ins")]
    assert ("workbench reviewer", ADDED) in [(a, t.strip()) for a, t in ins]


def test_each_change_is_accepted_or_rejected_and_the_precedents_words_come_back(drafted):
    page, base, app = drafted
    i = _row_with_redline(page)
    cell = _cell(page, i)
    cell.locator("button.show-redline").click()
    before = cell.locator(".body").inner_text()
    first = cell.locator(".change.pending:has(del):has(ins)").nth(0)
    struck, put = first.locator("del").inner_text(), first.locator("ins").inner_text()
    change = first.get_attribute("data-change")
    where = cell.get_attribute("id")  # the cell's id: another variant may hold the very same change
    first.locator("button.reject").click()
    page.wait_for_function(f"!document.querySelector(\"#{where} [data-change='{change}']\")")
    cell = _cell(page, i)
    assert cell.locator(".redline").is_visible()  # the pane stays open
    body = cell.locator(".body").inner_text()
    assert body.count(struck) == before.count(struck) + 1 and body.count(put) == before.count(put) - 1
    assert any(struck in own for own in small_library().originals.values())  # the precedent's own words
    nxt = cell.locator(".change.pending").nth(0)
    accepted = nxt.get_attribute("data-change")
    nxt.locator("button.accept").click()
    page.wait_for_selector(f"#{where} .change.accepted[data-change='{accepted}']")
    _reload(page)
    cell = _cell(page, i)
    assert cell.locator(".body").inner_text() == body
    assert cell.locator(f".change.accepted[data-change='{accepted}']").count() == 1
    assert cell.locator(f"[data-change='{change}']").count() == 0
    summary = cell.locator(".review-summary").inner_text()
    assert "1 accepted" in summary


def test_a_sections_precedent_opens_in_its_own_file_with_the_passage_marked(drafted):
    page, base, app = drafted
    i = _row_with_redline(page)
    cell = _cell(page, i)
    source = cell.locator(".source").nth(0).inner_text()
    cell.locator("button.show-context").nth(0).click()
    dialog = page.locator("#context")
    dialog.locator("mark").wait_for(state="visible")
    doc = source.split("(")[1].split(",")[0]
    assert dialog.locator("h3").inner_text() == doc
    marked = dialog.locator("mark").inner_text()
    own = small_library().originals
    assert any(marked in text for cid, text in own.items() if cid.startswith(doc + "#"))
    assert dialog.locator(".ctx-part.neighbour").count() >= 1  # the clauses around it
    dialog.locator("#context-close").click()
    assert not dialog.is_visible()
