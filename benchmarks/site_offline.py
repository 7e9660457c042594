"""Figures of the site's navigation, downloads and offline use (docs/site.md, docs/api.md).

Builds the corpus's site with its search index (or uses ``--site DIR``), serves it on
127.0.0.1 and, in Chromium (``/usr/bin/chromium``), for each language:

- the header's height at 390 and 1280 px wide (issue 12 asks for at most 120 px on a phone);
- what the service worker keeps after a first visit to a ruling page and one search: files
  and bytes in its cache, and what ``offline/<lang>.json`` lists;

then the size of ``api/``. Nothing here is timed: the figures are sizes, the same on any
machine for the same site. The ratio lines (benchmarks/paired.py) set what the service
worker keeps after the visit and the search beside what ``offline/<lang>.json`` lists, one
pair per language. It prints the figures; it is not a test::

    python benchmarks/site_offline.py [--site DIR] [--corpus DIR]

``--corpus DIR``: a folder holding ``rulings/`` (default: the project's).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import paired  # noqa: E402

from judge.paths import project_root
from judge.site.build import build_site
from judge.site.serve import start_server

QUERIES = {"ja": "リフレッシュ", "en": "refresh", "zh-Hans": "重构"}
CACHED = """async () => {
    let files = 0, bytes = 0;
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            files += 1;
            bytes += (await (await cache.match(request)).blob()).size;
        }
    }
    return [files, bytes];
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    parser.add_argument("--corpus", type=Path, default=None,
                        help="a folder holding rulings/ (default: the project)")
    args = parser.parse_args()
    print(paired.machine())
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            root = args.corpus.resolve() if args.corpus else project_root()
            build_site(site, root=root, search=True)
        measure(site)


def first_ruling(site: Path) -> str:
    """``rulings/ID/`` of the first ruling page of ``site`` (the same id in every language)."""
    page = min((site / "en" / "rulings").glob("*/index.html"))
    return f"rulings/{page.parent.name}/"


def measure(site: Path) -> None:
    ruling = first_ruling(site)
    kept = paired.Pairs()
    server = start_server(site, 0)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                 args=["--no-sandbox"])
            for width in (390, 1280):
                context = browser.new_context(viewport={"width": width, "height": 844})
                tab = context.new_page()
                heights = []
                for lang in QUERIES:
                    tab.goto(f"{base}/{lang}/{ruling}")
                    heights.append(f"{lang} {tab.evaluate(HEIGHT):.1f} px")
                print(f"header at {width} px: " + ", ".join(heights))
                context.close()
            for lang, query in QUERIES.items():
                context = browser.new_context(viewport={"width": 390, "height": 844})
                tab = context.new_page()
                tab.goto(f"{base}/{lang}/{ruling}")
                tab.wait_for_selector("html[data-offline=kept]", timeout=60_000)
                tab.goto(f"{base}/{lang}/search/?q={query}")
                tab.wait_for_function("() => document.getElementById('search')"
                                      ".getAttribute('data-state') === 'done'")
                files, size = tab.evaluate(CACHED)
                listed = json.loads((site / "offline" / f"{lang}.json").read_text())
                bundle = sum((site / f).stat().st_size for f in listed["files"]
                             if f.startswith("search-index/"))
                kept.add(size, listed["bytes"])
                print(f"offline {lang}: after a visit and a search ({query}) the cache holds "
                      f"{files} files, {size / 1e6:.2f} MB; offline/{lang}.json lists "
                      f"{len(listed['files'])} files, {listed['bytes'] / 1e6:.2f} MB "
                      f"(the search index {bundle / 1e6:.2f} MB)")
                context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(paired.ratio_line("bytes the service worker keeps after a visit and a search / "
                            "bytes offline/<lang>.json lists, one pair per language", kept,
                            unit="B"))
    api = site / "api"
    rulings = sorted((api / "rulings").glob("*.json.gz"))
    sizes = [p.stat().st_size for p in rulings]
    plain = [len(gzip.decompress(p.read_bytes())) for p in rulings]
    index = (api / "rulings.json").stat().st_size
    database = api / "judge.db.gz"
    print(f"api: rulings.json {index / 1e3:.0f} KB; {len(rulings)} ruling files "
          f"{sum(sizes) / 1e6:.2f} MB gzip-compressed "
          f"({min(sizes) / 1e3:.1f}-{max(sizes) / 1e3:.1f} KB each; "
          f"{sum(plain) / 1e6:.2f} MB of JSON decompressed); "
          f"judge.db.gz {database.stat().st_size / 1e6:.2f} MB "
          f"({len(gzip.decompress(database.read_bytes())) / 1e6:.2f} MB decompressed)")


HEIGHT = "() => document.querySelector('header.top').getBoundingClientRect().height"

if __name__ == "__main__":
    sys.exit(main())
