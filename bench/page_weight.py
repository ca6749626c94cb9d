"""How much a first visit to the page transfers, against the design's 150 KB anchor.

Starts ``zar serve`` on a free port over a throwaway database, opens the home screen in
Debian's Chromium (through Playwright) with an empty cache, and adds up the bytes of every
response as they came over the wire (headers included, compressed as served). Prints one
line per file, then the total.

    .venv/bin/python bench/page_weight.py
"""

from __future__ import annotations

import gzip
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright
from serving import serve

ANCHOR = 150 * 1024
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def first_visit(url: str) -> list[tuple[str, int, int]]:
    """(address, bytes transferred, bytes if gzipped) for each response of a first visit."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        urls: dict[str, str] = {}
        sizes: dict[str, int] = {}
        cdp.on(
            "Network.requestWillBeSent",
            lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]),
        )
        cdp.on(
            "Network.loadingFinished",
            lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]),
        )
        page.goto(url)
        page.get_by_role("button", name="Yeni oyun").wait_for()
        page.wait_for_load_state("networkidle")
        browser.close()
    rows = []
    for request_id, transferred in sizes.items():
        with urllib.request.urlopen(urls[request_id]) as response:
            body = response.read()
        rows.append((urls[request_id].removeprefix(url), transferred, len(gzip.compress(body, 9))))
    return sorted(rows)


def main() -> None:
    if not Path(CHROMIUM).exists():
        print(f"page weight: skipped, {CHROMIUM} is missing (make browser installs it)")
        return
    with tempfile.TemporaryDirectory() as folder:
        server, url = serve(Path(folder))
        try:
            rows = first_visit(url)
        finally:
            server.terminate()
            server.wait(timeout=10)
    print(f"{'first visit to /':40} {'transferred':>12} {'body gzipped':>13}")
    for address, transferred, gzipped in rows:
        print(f"{address:40} {transferred:>12,} {gzipped:>13,}")
    total = sum(transferred for _, transferred, _ in rows)
    print(f"{f'total, {len(rows)} responses':40} {total:>12,} {sum(g for *_, g in rows):>13,}")
    print(f"anchor {ANCHOR:,} bytes (150 KB): the first visit is {100 * total / ANCHOR:.0f}% of it")


if __name__ == "__main__":
    main()
