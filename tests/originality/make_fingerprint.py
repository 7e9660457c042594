"""Write ``tests/originality/seed-fingerprint.bin`` from the seed documents.

Usage, from the repository root::

    .venv/bin/python tests/originality/make_fingerprint.py [SEEDS_DIR] [-o OUTPUT]

SEEDS_DIR defaults to ``$JUDGE_SEEDS`` or ``../shared/seeds`` (beside the repository). The
file holds hashes of the seeds' 20-character shingles, never their text; its format is
described in ``shingles.py``. Run it again whenever the seeds change; tests/test_originality.py
fails while the file is out of date (when the seeds are present).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shingles import FINGERPRINT, build, default_seeds, parse, seed_texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", nargs="?", type=Path, default=None,
                        help="directory of the seed documents (*.txt)")
    parser.add_argument("-o", "--output", type=Path, default=FINGERPRINT,
                        help=f"where to write the fingerprint (default {FINGERPRINT})")
    args = parser.parse_args(argv)
    seeds: Path = args.seeds if args.seeds is not None else default_seeds()
    if not seeds.is_dir():
        print(f"make_fingerprint: no seed directory {seeds}", file=sys.stderr)
        return 1
    try:
        data = build(seed_texts(seeds))
    except FileNotFoundError as error:
        print(f"make_fingerprint: {error}", file=sys.stderr)
        return 1
    output: Path = args.output
    output.write_bytes(data)
    print(f"wrote {len(parse(data))} shingles ({len(data)} bytes) to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
