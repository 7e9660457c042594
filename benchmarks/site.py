"""Site benchmark: the whole ``judge build`` against MkDocs Material, on generated rulings.

Run from the repository root (a script, not a test; the MkDocs side needs PyPI once)::

    python benchmarks/site.py                          # 1,000 rulings, 3 pairs
    python benchmarks/site.py --rulings 200 --pairs 5
    python benchmarks/site.py --mkdocs-venv DIR        # MkDocs from DIR (made there if absent)
    python benchmarks/site.py --no-mkdocs              # judge build against --no-search only

What it does:

1. Writes ``--rulings`` ruling files (default 1,000) into a temporary corpus, from four
   scenario templates (a mill that refreshes, a crush, a draw then a mill, an ener charge)
   whose sizes vary with the ruling's number, and texts in Japanese, English and Chinese made
   of the glossary's names and filler words (a fixed seed). Every one must pass its replay.
2. Writes the same content as Markdown for MkDocs, one page per ruling per language (title,
   rule sets, tags, question, answer, explanation, sources and the replay as a numbered list
   of the narrated events of its last rule set, no diagrams), and a home page per language.
3. Installs MkDocs into a venv of its own (``--mkdocs-venv``, made there if it has no
   ``mkdocs`` yet; by default in the temporary folder), from PyPI: mkdocs-material and
   mkdocs-static-i18n, whose versions it prints.
4. Times, in turns (``--pairs`` rounds, the order reversed every other round), each in a
   fresh process into an empty folder:

   - ``judge build`` as a user runs it (the console script: parse, replay, render in as many
     processes as it picks, the API and database, the sandbox, and the search index of
     every language);
   - ``mkdocs build`` with the Material theme, its search plugin on (Japanese, English and
     Chinese) and a bounded navigation: three entries, the home page of each language, as
     a site of thousands of pages would have; the anchor of the target;
   - ``mkdocs build`` with the Material theme, search on and mkdocs-static-i18n (three
     languages, folder structure), the configuration an i18n MkDocs site starts from. Its
     navigation lists every page on every page, so its time and size grow with the square
     of the pages: it runs in the first ``--i18n-pairs`` rounds only (default 1; 0: never).

   With ``--no-mkdocs`` the anchor is ``judge build --no-search`` instead (what the search
   index costs).
5. Prints, for each anchor, the median and spread of the paired ratios (MkDocs' time over
   judge's: above 1, judge is faster) with the load (benchmarks/paired.py), each site's size,
   and the ruling pages' sizes (HTML plus the stylesheet).

Target (issue 29, item 2): on 1,000 rulings the whole ``judge build`` at least 1.5 times as
fast as MkDocs Material with search and a bounded navigation, in one run. A ruling page is
under 30 KB of HTML and CSS.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import paired  # noqa: E402

from judge.corpus import Corpus, Term, load_corpus, load_glossary  # noqa: E402
from judge.i18n import LANGS  # noqa: E402
from judge.narrate import narrator_for  # noqa: E402
from judge.scenario.versions import FORMAT_VERSION  # noqa: E402
from judge.site.render import assets_dir  # noqa: E402

TARGET_RATIO = 1.5  # MkDocs' time over judge build's, at least
TARGET_PAGE_BYTES = 30_000  # "30 KB", read strictly
MKDOCS_PACKAGES = ("mkdocs", "mkdocs-material", "mkdocs-static-i18n")
#: mkdocs-static-i18n's locale (and Material's search language) for each of the site's
MKDOCS_LOCALES = {"ja": "ja", "en": "en", "zh-Hans": "zh"}

FILLER = {
    "ja": ("効果", "場合", "プレイヤー", "ターン", "カード", "置きます", "引きます", "解決",
           "状態", "対象", "自分", "相手", "枚", "とき", "その後", "同時", "処理", "上から",
           "順番", "残り", "すべて", "中断", "開始", "終了", "条件", "能力", "新しい"),
    "zh-Hans": ("效果", "情况", "玩家", "回合", "卡牌", "放置", "抽", "处理", "状态", "对象",
                "自己", "对手", "张", "时", "之后", "然后", "同时", "顺序", "剩下", "全部",
                "中断", "开始", "结束", "条件", "能力", "新的"),
    "en": ("effect", "case", "player", "turn", "card", "puts", "draws", "resolves", "state",
           "target", "own", "opponent", "cards", "when", "then", "same", "time", "order",
           "rest", "every", "begins", "ends", "condition", "ability", "new", "the", "a", "of",
           "and", "is", "in", "it", "after", "one", "two"),
}
TOPICS = ("refresh", "effects", "battle", "game-flow")


# ---------------------------------------------------------------------- generated rulings


def _cards(prefix: str, n: int) -> str:
    return ", ".join(f'"{prefix}{i}"' for i in range(1, n + 1))


def scenario_mill(k: int) -> tuple[str, list[str], list[str], list[str]]:
    """Mill one more card than the deck holds: the refresh comes in the middle."""
    body = f"""[setup]
turn = 3
turn_player = "p1"
first_player = "p1"
phase = "main"
refreshes = {{ p1 = 0 }}

[setup.p1]
deck = [{_cards("d", k)}]
trash = ["t1"]
life = ["l1", "l2"]
lrig = ["L0:lrig-white-0"]

[setup.p2]
deck = ["e*5"]
lrig = ["M:lrig-red-4"]

[[steps]]
action = "effect"
player = "p1"
ops = [{{ op = "mill", count = {k + 1} }}]

[[expect]]
refreshes = {{ p1 = 1 }}
[expect.zones.p1]
deck = {{ cards = [{_cards("d", k)}, "t1"] }}
trash = ["l1"]
life = ["l2"]
[expect.events]
subsequence = [
  {{ type = "skipped", verb = "mill", wanted = {k + 1}, done = {k} }},
  {{ type = "refresh", player = "p1" }},
]
"""
    return (body, ["2014-07", "2014-09", "current"], ["refresh", "deck-out"],
            ["refresh", "main-deck", "trash", "life-cloth", "mill"])


CRUSHED = ('{ type = "move", card = "m1", from = "p2.life", to = "p2.check", verb = "crush", '
           'cause = "effect" }')
CHECKED = ('{ type = "move", card = "m1", from = "p2.check", to = "p2.ener", cause = "rule", '
           'verb = "check" }')


def scenario_crush(k: int) -> tuple[str, list[str], list[str], list[str]]:
    """Crush one life cloth of an opponent who holds ``k``: it goes to the ener zone."""
    rest = ", ".join(f'"m{i}"' for i in range(2, k + 1))
    body = f"""[setup]
turn = 5
turn_player = "p1"
first_player = "p1"
phase = "main"

[setup.p1]
deck = ["d*5"]
life = ["l*5"]
lrig = ["L:lrig-red-4"]

[setup.p2]
deck = ["e*5"]
life = [{_cards("m", k)}]
lrig = ["M:lrig-white-4"]

[[steps]]
action = "effect"
player = "p1"
ops = [{{ op = "crush", who = "opponent", count = 1 }}]

[[expect]]
winner = "none"
[expect.zones.p2]
life = [{rest}]
check = []
[expect.events]
sequence = [
  {CRUSHED},
  {CHECKED},
]
"""
    return (body, ["2014-04", "2014-07", "2014-09", "current"], ["crush", "life-burst"],
            ["crush", "life-cloth", "check-zone", "ener-zone", "rule-processing"])


def scenario_draw(k: int) -> tuple[str, list[str], list[str], list[str]]:
    """Draw two, then mill one, from a deck of ``k`` + 3 cards."""
    n = k + 3
    body = f"""[setup]
turn = 4
turn_player = "p1"
first_player = "p2"
phase = "main"

[setup.p1]
deck = [{_cards("d", n)}]
life = ["l*3"]
lrig = ["L:lrig-white-4"]

[setup.p2]
deck = ["e*5"]
lrig = ["M:lrig-red-4"]

[[steps]]
action = "effect"
player = "p1"
ops = [{{ op = "draw", count = 2 }}]

[[steps]]
action = "effect"
player = "p1"
ops = [{{ op = "mill", count = 1 }}]

[[expect]]
[expect.zones.p1]
hand = ["d1", "d2"]
trash = ["d3"]
deck = [{", ".join(f'"d{i}"' for i in range(4, n + 1))}]
"""
    return (body, ["2014-04", "2014-07", "2014-09", "current"], ["draw", "effects"],
            ["draw", "main-deck", "hand", "trash"])


def scenario_charge(k: int) -> tuple[str, list[str], list[str], list[str]]:
    """Charge ``k`` % 3 + 1 cards from the top of the deck into the ener zone."""
    c = k % 3 + 1
    body = f"""[setup]
turn = 2
turn_player = "p2"
first_player = "p1"
phase = "main"

[setup.p1]
deck = ["d*5"]
lrig = ["L:lrig-white-4"]

[setup.p2]
deck = [{_cards("e", 6)}]
lrig = ["M:lrig-red-4"]

[[steps]]
action = "effect"
player = "p2"
ops = [{{ op = "ener_charge", count = {c} }}]

[[expect]]
[expect.zones.p2]
ener = {{ cards = [{_cards("e", c)}] }}
deck = [{", ".join(f'"e{i}"' for i in range(c + 1, 7))}]
"""
    return (body, ["2014-04", "2014-07", "2014-09", "current"], ["ener", "effects"],
            ["ener-zone", "main-deck", "effect"])


TEMPLATES = (scenario_mill, scenario_crush, scenario_draw, scenario_charge)


def _sentence(rng: random.Random, lang: str, names: list[str], n: int) -> str:
    words = [rng.choice(FILLER[lang]) for _ in range(n)]
    for name in names:
        if rng.random() < 0.7:
            words.insert(rng.randrange(len(words) + 1), name)
    if lang == "en":
        return " ".join(words).capitalize() + "."
    return "".join(words) + "。"


def _text(rng: random.Random, lang: str, names: list[str], sentences: int, n: int) -> str:
    parts = [_sentence(rng, lang, names, n) for _ in range(sentences)]
    if sentences > 2:  # two paragraphs, with some emphasis, as ruling explanations have
        parts[0] = f"**{parts[0]}**"
        return " ".join(parts[:sentences // 2]) + "\n\n" + " ".join(parts[sentences // 2:])
    return " ".join(parts)


def _toml_string(text: str) -> str:
    return '"""' + text.replace("\\", "\\\\").replace('"""', '\\"""') + '"""'


def write_corpus(root: Path, count: int, glossary: dict[str, Term],
                 seed: int = 20140401) -> None:
    rng = random.Random(seed)
    for i in range(count):
        body, rulesets, tags, terms = TEMPLATES[i % len(TEMPLATES)](2 + i % 4)
        terms = [t for t in terms if t in glossary]
        topic = TOPICS[i % len(TOPICS)]
        rid = f"generated-{i:04d}"
        lines = [f'id = "{rid}"', f"rulesets = {rulesets!r}".replace("'", '"'),
                 f"tags = {tags!r}".replace("'", '"'), f"terms = {terms!r}".replace("'", '"')]
        related = [f"generated-{j:04d}" for j in (i - 1, i + 1) if 0 <= j < count]
        lines.append(f"related = {related!r}".replace("'", '"'))
        for field, sentences, words in (("title", 1, 6), ("question", 2, 14),
                                         ("answer", 1, 12), ("explanation", 5, 16)):
            lines.append(f"\n[{field}]")
            for lang in LANGS:
                names = [glossary[t].name(lang) for t in terms]
                text = _text(rng, lang, names, sentences, words)
                if field == "title":
                    text = f"{text.rstrip('。.')} ({i})"
                lines.append(f"{lang} = {_toml_string(text)}")
        lines.insert(1, 'sources = ["glossary-refresh"]')
        lines.insert(0, f"format_version = {FORMAT_VERSION}")
        folder = root / "rulings" / topic
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{rid}.toml").write_text("\n".join(lines) + "\n" + body, encoding="utf-8")


# ---------------------------------------------------------------------- the same in MkDocs


def write_markdown(docs: Path, corpus: Corpus) -> int:
    """One Markdown page per ruling per language, in a folder per language
    (mkdocs-static-i18n's folder structure; the bounded configuration reads the same)."""
    pages = 0
    for lang in LANGS:
        base = docs / MKDOCS_LOCALES[lang]
        (base / "rulings").mkdir(parents=True, exist_ok=True)
        (base / "index.md").write_text("# WIXOSS rulings\n", encoding="utf-8")
        pages += 1
        for ruling in corpus.rulings:
            sc = ruling.scenario

            def text(name: str, texts: dict[str, dict[str, str]] = sc.texts,
                     lang: str = lang) -> str:
                table = texts.get(name) or {}
                return table.get(lang) or table.get("ja") or ""

            out = [f"# {text('title')}", "", " ".join(f"`{rs}`" for rs in sc.rulesets),
                   " ".join(f"#{t}" for t in sc.tags), ""]
            for name in ("question", "answer", "explanation"):
                out += [f"## {name.capitalize()}", "", text(name), ""]
            out += ["## Sources", ""]
            for citation in sc.sources:
                doc = corpus.sources[citation.source]
                section = doc.sections.get(citation.section) if citation.section else None
                where = f", {section.name(lang)}" if section is not None else ""
                out.append(f"- {doc.title(lang)}{where} ({doc.authority}, {doc.date})")
            latest = ruling.replays[sc.rulesets[-1]]
            out += ["", "## Replay", ""]
            narrator = narrator_for(sc, lang)
            out += [f"1. {line}" for line in narrator.events(latest.first.events)]
            folder = base / "rulings" / ruling.topic
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{sc.id}.md").write_text("\n".join(out) + "\n", encoding="utf-8")
            pages += 1
    return pages


#: Material, search on in the three languages, and a navigation of three entries.
BOUNDED_YML = """site_name: WIXOSS rulings
docs_dir: docs
site_dir: site
theme:
  name: material
plugins:
  - search:
      lang: [ja, en, zh]
nav:
  - 日本語: ja/index.md
  - English: en/index.md
  - 简体中文: zh/index.md
"""

#: Material, search on, and mkdocs-static-i18n's folder structure (its own navigation).
I18N_YML = """site_name: WIXOSS rulings
docs_dir: docs
site_dir: site
theme:
  name: material
plugins:
  - search
  - i18n:
      docs_structure: folder
      languages:
        - locale: ja
          default: true
          name: 日本語
          build: true
        - locale: en
          name: English
          build: true
        - locale: zh
          name: 简体中文
          build: true
"""


def mkdocs_venv(venv: Path) -> Path:
    """The ``mkdocs`` of ``venv``, installed there from PyPI first if it has none."""
    mkdocs = venv / "bin" / "mkdocs"
    python = venv / "bin" / "python"
    if not mkdocs.exists():
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        done = subprocess.run([str(python), "-m", "pip", "install", "-q",
                               "--disable-pip-version-check", *MKDOCS_PACKAGES],
                              capture_output=True, text=True)
        if done.returncode:
            sys.stderr.write(done.stdout + done.stderr)
            done.check_returncode()
        print(f"installed MkDocs into {venv} in {time.perf_counter() - started:.0f} s")
    versions = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"],
                              check=True, capture_output=True, text=True).stdout
    wanted = {p.replace("-", "_").lower() for p in MKDOCS_PACKAGES}
    shown = [v for v in versions.split() if v.split("==")[0].replace("-", "_").lower() in wanted]
    print(f"mkdocs: {', '.join(shown)} ({venv})")
    return mkdocs


def mkdocs_project(work: Path, name: str, docs: Path, config: str) -> Path:
    project = work / name
    project.mkdir()
    (project / "docs").symlink_to(docs)
    (project / "mkdocs.yml").write_text(config, encoding="utf-8")
    return project


def run(command: list[str], cwd: Path, out: Path) -> float:
    """Wall seconds of ``command`` in a fresh process, writing into ``out`` (emptied first,
    untimed)."""
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "NO_MKDOCS_2_WARNING": "1"}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n"
                         f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return seconds


def judge_command() -> list[str]:
    """The ``judge`` console script beside this Python (as a user runs it)."""
    script = Path(sys.executable).parent / "judge"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; sys.argv[0] = 'judge'; "
            "from judge.cli import main; sys.exit(main())"]


# ---------------------------------------------------------------------- reporting


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def bytes_by_kind(site: Path) -> dict[str, int]:
    """A built site's bytes by kind of file: the ruling pages (``pages/rulings/*``, every
    language), each other page family of the languages (``pages/glossary`` ...), each entry of
    ``api/`` and each other folder or file at the root (``search-index``, ``sandbox`` ...)."""
    kinds: dict[str, int] = {}
    for path in site.rglob("*"):
        if not path.is_file():
            continue
        parts = path.relative_to(site).parts
        if parts[0] in LANGS and len(parts) > 2:
            kind = "pages/rulings/*" if parts[1] == "rulings" and len(parts) > 3 \
                else f"pages/{parts[1]}"
        elif parts[0] in LANGS:
            kind = "pages/(home)"
        elif parts[0] == "api":
            kind = f"api/{parts[1]}"
        else:
            kind = parts[0]
        kinds[kind] = kinds.get(kind, 0) + path.stat().st_size
    return kinds


def describe_kinds(site: Path, rulings: int) -> None:
    """Print :func:`bytes_by_kind` per ruling, largest first (kinds under 0.05 KB a ruling
    together as "the rest")."""
    kinds = bytes_by_kind(site)
    total = sum(kinds.values())
    shown = sorted(((size, kind) for kind, size in kinds.items()
                    if size / rulings >= 50), reverse=True)
    rest = total - sum(size for size, _ in shown)
    print(f"site by kind, KB per ruling ({rulings:,} rulings, {total / rulings / 1e3:.1f} KB "
          "in all): " + ", ".join(f"{kind} {size / rulings / 1e3:.2f}" for size, kind in shown)
          + f", the rest {rest / rulings / 1e3:.2f}")


def ruling_page_sizes(site: Path) -> list[int]:
    css = sum(p.stat().st_size for p in (site / "assets").glob("*.css"))
    return sorted(p.stat().st_size + css for lang in LANGS
                  for p in (site / lang / "rulings").glob("*/index.html"))


def describe_sizes(label: str, sizes: list[int]) -> None:
    over = sum(s >= TARGET_PAGE_BYTES for s in sizes)
    print(f"{label}: {len(sizes)} ruling pages, HTML+CSS min {sizes[0] / 1024:.1f} KiB, "
          f"median {statistics.median(sizes) / 1024:.1f} KiB, max {sizes[-1] / 1024:.1f} KiB; "
          f"{over} at or over {TARGET_PAGE_BYTES:,} bytes")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rulings", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=3, help="rounds of the builds (default 3)")
    parser.add_argument("--i18n-pairs", type=int, default=1,
                        help="rounds that also run the static-i18n configuration (default 1)")
    parser.add_argument("--mkdocs-venv", type=Path,
                        help="a venv with MkDocs (made there if it has none; default: a "
                             "temporary one)")
    parser.add_argument("--no-mkdocs", action="store_true",
                        help="compare with judge build --no-search instead of MkDocs")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="judge-site-bench-"))
    try:
        print(paired.machine())
        corpus_dir = work / "corpus"
        started = time.perf_counter()
        write_corpus(corpus_dir, args.rulings, load_glossary())
        print(f"wrote {args.rulings} rulings in {time.perf_counter() - started:.1f} s "
              f"into {corpus_dir}")
        judge = [*judge_command(), "build", "--corpus", str(corpus_dir)]
        site = work / "site"
        commands: dict[str, tuple[list[str], Path, Path]] = {
            "judge": ([*judge, "--out", str(site)], work, site)}
        anchors: list[tuple[str, str]] = []
        if args.no_mkdocs:
            plain = work / "site-no-search"
            commands["no-search"] = ([*judge, "--no-search", "--out", str(plain)], work, plain)
            anchors.append(("no-search", "judge build --no-search / judge build"))
        else:
            corpus = load_corpus(corpus_dir)
            pages = write_markdown(work / "markdown", corpus)
            print(f"wrote {pages} Markdown pages for MkDocs")
            mkdocs = str(mkdocs_venv(args.mkdocs_venv or work / "mkdocs-venv"))
            for name, config in (("bounded", BOUNDED_YML), ("i18n", I18N_YML)):
                project = mkdocs_project(work, f"mkdocs-{name}", work / "markdown", config)
                commands[name] = ([mkdocs, "build", "-q"], project, project / "site")
            anchors.append(("bounded", "MkDocs Material, search on, navigation of three "
                                       "entries / judge build"))
            if args.i18n_pairs:
                anchors.append(("i18n", "MkDocs Material, search on, static-i18n / "
                                        "judge build"))
        pairs = {key: paired.Pairs() for key, _ in anchors}
        for i in range(args.pairs):
            keys = ["judge", *(k for k, _ in anchors if k != "i18n" or i < args.i18n_pairs)]
            order = keys if i % 2 == 0 else keys[::-1]
            seconds = {key: run(*commands[key]) for key in order}
            for key in keys[1:]:
                pairs[key].add(seconds[key], seconds["judge"])
            print(f"round {i + 1}: " + ", ".join(f"{k} {seconds[k]:.2f} s" for k in keys))
        print()
        for key, label in anchors:
            target = TARGET_RATIO if key == "bounded" else None
            print(paired.ratio_line(label, pairs[key], target=target, at_most=False))
        for key, (_, _, out) in commands.items():
            if out.is_dir():
                size = folder_bytes(out)
                print(f"site {key}: {size / 1e6:.1f} MB, {size / args.rulings / 1e3:.1f} KB "
                      f"per ruling")
        describe_kinds(site, args.rulings)
        describe_sizes("judge's ruling pages", ruling_page_sizes(site))
        css = sum(p.stat().st_size for p in assets_dir().glob("*.css"))
        print(f"(the stylesheet counted in each page is {css / 1024:.1f} KiB)")
        return 0
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
