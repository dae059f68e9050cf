"""The workbench's screenshots in docs/screenshots/, taken in headless Chromium on the shipped model: the form filled
with the example values, the variants side by side, a redline against the precedent's own words, a section edited in
place and its review (a change rejected, one accepted, the lawyer's own edit), a precedent in its own document, the
queue and history of two drafts, and the libraries panel.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--n 3]

Needs Debian's `chromium` and Playwright (README, "The workbench"); drafts mutual-nda's example on the CPU (a few
minutes). Each PNG is reduced to a palette of 64 colours when Pillow is there, so the repository stays small.
"""

import argparse
import contextlib
import shutil
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


@contextlib.contextmanager
def serving(app):
    """A real uvicorn server of `app` on a free local port, in a thread: its base URL."""
    import uvicorn

    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{srv.servers[0].sockets[0].getsockname()[1]}"
    srv.should_exit = True
    thread.join(timeout=10)


def shoot(page, selectors: str, path: Path, height: int = 760) -> None:
    """The elements at `selectors` (comma-separated: the box around them all; its top `height` pixels) as a PNG."""
    boxes = [page.locator(s.strip()).first.bounding_box() for s in selectors.split(",")]  # the viewport's coordinates
    scroll = page.evaluate("window.scrollY")  # a full-page clip takes the page's
    x, y = min(b["x"] for b in boxes), min(b["y"] for b in boxes)
    width = max(b["x"] + b["width"] for b in boxes) - x
    bottom = max(b["y"] + b["height"] for b in boxes)
    page.screenshot(path=str(path), full_page=True,
                    clip={"x": x, "y": y + scroll, "width": width, "height": min(bottom - y, height)})
    try:
        from PIL import Image
    except ImportError:
        return
    Image.open(path).convert("RGB").quantize(colors=64).save(path, optimize=True)
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size} bytes")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--n", type=int, default=3, help="variants of the draft shown side by side")
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("chromium not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    from hybrid.draft.drafter import Drafter
    from hybrid.serve.app import create_app
    from hybrid.serve.libraries import Libraries, drafters

    args.out.mkdir(parents=True, exist_ok=True)
    app = create_app(drafters(Drafter.from_pretrained(device="cpu")), libraries=Libraries())
    with serving(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = _views(browser, url, args)
        _queue(browser, url, page, args.out)
        browser.close()


def _open(browser, url):
    page = browser.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True).new_page()
    page.goto(url + "/")
    page.wait_for_selector("#fields input[name='party_a']")
    return page


def _views(browser, url, args):
    """The form, the libraries panel, the variants side by side and a redline; returns the page."""
    page = _open(browser, url)
    page.click("#example")
    page.fill("#n", str(args.n))
    shoot(page, "#setup", args.out / "form.png")
    page.click("#libraries summary")
    shoot(page, "#libraries", args.out / "libraries.png")
    page.click("#libraries summary")
    page.click("#draft")
    page.wait_for_selector("#compare[data-reviewed]", timeout=900_000)
    shoot(page, "#compare", args.out / "compare.png")
    row = page.locator("#variants tbody tr:has(button.show-redline)").nth(1)
    row.locator("button.show-redline").first.click()
    where = f"#variants tbody tr[data-section='{row.get_attribute('data-section')}']"
    shoot(page, where, args.out / "redline.png")
    _review(page, where, args.out)
    return page


def _review(page, where: str, out: Path) -> None:
    """In the redline's row: the first variant's section edited in place (a sentence added), one change rejected and
    one accepted; then its precedent in its own document."""
    cell = page.locator(f"{where} td.clause").first
    cell.locator("button.edit-section").click()
    area = cell.locator("textarea.editor")
    area.fill(area.input_value() + "\n\nEach party shall tell the other of any loss of its Confidential Information "
              "within five business days.")
    shoot(page, where, out / "edit.png")
    cell.locator("button.save-edit").click()
    page.wait_for_selector(f"{where} .body.edited")
    cell = page.locator(f"{where} td.clause").first
    for decision in ("reject", "accept"):
        n = cell.locator(".change.pending").count()
        cell.locator(f".change.pending button.{decision}").first.click()
        page.wait_for_function(f"document.querySelector(\"{where} td.clause\").querySelectorAll('.change.pending')"
                               f".length < {n}")
        cell = page.locator(f"{where} td.clause").first
    shoot(page, where, out / "review.png")
    cell.locator("button.show-context").first.click()
    page.locator("#context mark").wait_for(state="visible")
    shoot(page, "#context", out / "context.png", height=700)
    page.click("#context-close")


def _queue(browser, url, first, out: Path) -> None:
    """Two drafts at once: the second page shows its place in the queue, and the history lists both."""
    first.fill("#n", "1")
    first.click("#draft")
    first.wait_for_selector("#stages li")
    second = _open(browser, url)
    second.click("#example")
    second.fill("#n", "1")
    second.click("#draft")
    second.wait_for_function("document.querySelector('#now').textContent.startsWith('queued')", timeout=60_000)
    shoot(second, "#history, #progress", out / "queue.png")
    second.wait_for_selector("#compare[data-reviewed]", timeout=900_000)
    first.reload()
    first.wait_for_selector("#history-list li")
    shoot(first, "#history", out / "history.png")


if __name__ == "__main__":
    main()
