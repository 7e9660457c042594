"""Write ``tests/originality/seed-fingerprint.bin`` from the seed documents, or check it.

Usage, from the repository root::

    .venv/bin/python tests/originality/make_fingerprint.py SEEDS_DIR [-o OUTPUT]
    .venv/bin/python tests/originality/make_fingerprint.py SEEDS_DIR --check

SEEDS_DIR is the folder of the seed documents (``*.txt``); they are not part of the
repository, so it is always named. The file holds hashes of the seeds' 20-character
shingles, never their text; its format is described in ``shingles.py``. Run it again
whenever the seeds change; ``--check`` exits with status 1 while the committed file is out of
date with SEEDS_DIR and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shingles import FINGERPRINT, build, parse, seed_texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=Path, help="directory of the seed documents (*.txt)")
    parser.add_argument("-o", "--output", type=Path, default=FINGERPRINT,
                        help=f"where to write the fingerprint (default {FINGERPRINT})")
    parser.add_argument("--check", action="store_true",
                        help="only say whether OUTPUT is current with SEEDS_DIR (status 1 if not)")
    args = parser.parse_args(argv)
    seeds: Path = args.seeds
    output: Path = args.output
    if not seeds.is_dir():
        print(f"make_fingerprint: no seed directory {seeds}", file=sys.stderr)
        return 1
    try:
        data = build(seed_texts(seeds))
    except FileNotFoundError as error:
        print(f"make_fingerprint: {error}", file=sys.stderr)
        return 1
    if args.check:
        if output.is_file() and output.read_bytes() == data:
            print(f"{output} is current with {seeds}")
            return 0
        print(f"make_fingerprint: {output} is out of date with {seeds}: run without --check",
              file=sys.stderr)
        return 1
    output.write_bytes(data)
    print(f"wrote {len(parse(data))} shingles ({len(data)} bytes) to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
