"""How long a shared sandbox link is for each ruling of the corpus (issue 31, item 3).

The sandbox's "Copy link" puts the edited ruling in the address's fragment, deflated raw (the
browser's ``CompressionStream("deflate-raw")``, which is zlib at its default level) and
written in base64url, as the shorter of two forms (site_templates/sandbox.js, docs/site.md
"Sharing a position"): ``#try=2.``, the one run of lines where the text differs from the
ruling's own file, which the page opening the link has; ``#try=1.``, the whole text. This
script makes the same fragments with Python's zlib (raw deflate, level 6: the same library
and level) for every ruling of the corpus, for a typical position (the ruling with one card
more in player 1's hand, as the board's palette adds it) and for the whole file (the
longest a link can be), and prints the lengths of a whole link to the ruling's page on a
site at ``--origin``: the median, the 90th percentile, the longest (with its ruling) and how
many stay under 2,000 characters (the length a link keeps through chat applications and
old browsers). Lengths, not times: nothing here depends on the machine's load::

    python benchmarks/links.py [--corpus DIR] [--origin URL]
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import zlib
from pathlib import Path

from judge.paths import project_root
from judge.scenario.load import discover

#: The fragments' prefix (sandbox.js's SHARE).
PREFIX = "#try="
#: A length a link keeps through the places it is pasted into.
SHORT = 2000


def deflated(text: str) -> str:
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def inflated(code: str) -> str:
    return zlib.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)),
                           -15).decode("utf-8")


def digest(text: str) -> str:
    """sandbox.js's digest: FNV-1a over the UTF-16 code units, in hex."""
    value = 0x811C9DC5
    units = text.encode("utf-16-le")
    for i in range(0, len(units), 2):
        value ^= units[i] | units[i + 1] << 8
        value = (value * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def hunk(base: str, text: str) -> tuple[int, int, list[str]]:
    """sandbox.js's hunk: the one run of lines where ``text`` differs from ``base``."""
    a, b = base.split("\n"), text.split("\n")
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a, end_b = end_a - 1, end_b - 1
    return start, end_a - start, b[start:end_b]


def fragment(text: str, base: str | None = None) -> str:
    """The link's fragment for a ruling's ``text``, the page's file being ``base``."""
    whole = f"{PREFIX}1.{deflated(text)}"
    if base is None:
        return whole
    edit = json.dumps([digest(base), *hunk(base, text)], ensure_ascii=False,
                      separators=(",", ":"))
    short = f"{PREFIX}2.{deflated(edit)}"
    return short if len(short) <= len(whole) else whole


def unpack(hash_: str, base: str) -> str:
    """The text a fragment carries (the inverse of :func:`fragment`)."""
    form, code = hash_[len(PREFIX)], hash_[len(PREFIX) + 2:]
    if form == "1":
        return inflated(code)
    _, start, removed, lines = json.loads(inflated(code))
    out = base.split("\n")
    out[start:start + removed] = lines
    return "\n".join(out)


def one_card_more(text: str) -> str:
    """The ruling with a card ``x9`` more in player 1's hand (a board edit)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("hand = [") and line.endswith("]"):
            inside = line[len("hand = ["):-1].strip()
            lines[i] = f'hand = [{inside + ", " if inside else ""}"x9"]'
            return "\n".join(lines)
    at = lines.index("[setup.p1]") + 1 if "[setup.p1]" in lines else len(lines)
    lines.insert(at, 'hand = ["x9"]')
    return "\n".join(lines)


def summary(name: str, lengths: list[tuple[int, str]]) -> str:
    ordered = sorted(lengths)
    ninety = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))][0]
    longest = ordered[-1]
    short = sum(n < SHORT for n, _ in ordered)
    return (f"{name}: median {statistics.median(n for n, _ in ordered):.0f} characters, "
            f"90th percentile {ninety}, longest {longest[0]} ({longest[1]}); "
            f"{short} of {len(ordered)} under {SHORT}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=project_root(),
                        help="a folder holding rulings/ (default: the project's)")
    parser.add_argument("--origin", default="https://example.org/wixoss-judge",
                        help="the site's address the links start with")
    args = parser.parse_args()
    edited: list[tuple[int, str]] = []
    whole: list[tuple[int, str]] = []
    for path in discover([args.corpus / "rulings"]):
        text = path.read_text(encoding="utf-8")
        page = len(f"{args.origin.rstrip('/')}/ja/rulings/{path.stem}/")
        changed = one_card_more(text)
        link = fragment(changed, text)
        assert unpack(link, text) == changed
        edited.append((page + len(link), path.stem))
        whole.append((page + len(fragment(text)), path.stem))
    if not edited:
        raise SystemExit(f"no ruling under {args.corpus / 'rulings'}")
    print(f"{len(edited)} rulings, links to their pages at {args.origin}")
    print(summary("one card more in a hand (#try=2., the edit)", edited))
    print(summary("the whole file (#try=1.)", whole))


if __name__ == "__main__":
    main()
