"""Site benchmark: ``judge build`` on 1,000 generated rulings against MkDocs (Material).

Run from the repository root (a script, not a test; it needs PyPI for the MkDocs part)::

    python benchmarks/site.py                 # 1,000 rulings, MkDocs included
    python benchmarks/site.py --rulings 200   # a smaller run
    python benchmarks/site.py --no-mkdocs     # only judge build

What it does:

1. Writes ``--rulings`` ruling files (default 1,000) into a temporary corpus, from four
   scenario templates (a mill that refreshes, a crush, a draw then a mill, an ener charge)
   whose sizes vary with the ruling's number, and texts in Japanese, English and Chinese made
   of the glossary's names and filler words (a fixed seed). Every one must pass its replay:
   the build stops otherwise.
2. Times ``judge build`` three times, in this process: without the search index
   (``--no-search``) rendering in one process (``--jobs 1``) and as it does by default (one
   process per core for a site this large), then with the search index, printing each
   phase (load = parse and replay, context, render+write, and the search index), and the
   engine runs of one build beside the old site load's (benchmarks/engine_runs.py has more).
3. Writes the same content as Markdown, one page per ruling per language (title, question,
   answer, explanation, sources and the replay as a plain list of the narrated events, no
   diagrams), creates a throw-away venv under the temporary folder, installs mkdocs,
   mkdocs-material and mkdocs-static-i18n into it, and times ``mkdocs build`` with the Material
   theme and the i18n plugin (three languages, folder structure, no search plugin, so that
   both sides are timed without their search index).
4. Prints pages per second for both renderers and their ratio (as ``judge build`` runs, and
   in one process), the whole build time, and the ruling pages' sizes (HTML plus the
   stylesheet), also for the real corpus.

Targets on the project's machine (2 cores): ``judge build`` renders (without the search
index) at least 10 times as many pages per second as MkDocs; the whole build of 1,000 rulings,
search index included, takes under 60 s; a ruling page is under 30 KB of HTML and CSS.
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

from judge.corpus import Ruling, Term, load_corpus, load_glossary  # noqa: E402
from judge.i18n import LANGS  # noqa: E402
from judge.narrate import narrator_for  # noqa: E402
from judge.scenario.run import engine_runs  # noqa: E402
from judge.site.build import BuildReport, build_site  # noqa: E402
from judge.site.load import load  # noqa: E402
from judge.site.render import assets_dir  # noqa: E402

TARGET_RATIO = 10.0
TARGET_BUILD_S = 60.0
TARGET_PAGE_BYTES = 30_000  # "30 KB", read strictly
MKDOCS_PACKAGES = ("mkdocs", "mkdocs-material", "mkdocs-static-i18n")
#: mkdocs-static-i18n's locale for each of the site's languages
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


def write_corpus(root: Path, count: int, glossary: dict[str, Term], seed: int = 20140401) -> None:
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
        folder = root / "rulings" / topic
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{rid}.toml").write_text("\n".join(lines) + "\n" + body, encoding="utf-8")


# ---------------------------------------------------------------------- the same in MkDocs


def write_markdown(docs: Path, rulings: tuple[Ruling, ...]) -> int:
    """One Markdown page per ruling per language (mkdocs-static-i18n's folder structure)."""
    pages = 0
    for lang in LANGS:
        base = docs / MKDOCS_LOCALES[lang]
        (base / "rulings").mkdir(parents=True, exist_ok=True)
        (base / "index.md").write_text("# WIXOSS rulings\n", encoding="utf-8")
        pages += 1
        for ruling in rulings:
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
            out += [f"- {s.title} ({s.authority}, {s.date})" for s in sc.sources]
            latest = ruling.replays[sc.rulesets[-1]]
            out += ["", "## Replay", ""]
            narrator = narrator_for(sc, lang)
            out += [f"1. {line}" for line in narrator.events(latest.first.events)]
            topic = ruling.topic
            folder = base / "rulings" / topic
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{sc.id}.md").write_text("\n".join(out) + "\n", encoding="utf-8")
            pages += 1
    return pages


MKDOCS_YML = """site_name: WIXOSS rulings
docs_dir: docs
site_dir: site
theme:
  name: material
plugins:
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


def mkdocs_venv(work: Path) -> Path:
    venv = work / "mkdocs-venv"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "-q",
                           "--disable-pip-version-check", *MKDOCS_PACKAGES],
                          capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stdout + done.stderr)
        done.check_returncode()
    versions = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"],
                              check=True, capture_output=True, text=True).stdout
    wanted = {p.replace("-", "_").lower() for p in MKDOCS_PACKAGES}
    shown = [v for v in versions.split() if v.split("==")[0].replace("-", "_").lower() in wanted]
    print(f"mkdocs venv: {', '.join(shown)} ({time.perf_counter() - started:.0f} s to install)")
    return venv / "bin" / "mkdocs"


def run_mkdocs(mkdocs: Path, project: Path) -> tuple[float, int]:
    (project / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    started = time.perf_counter()
    subprocess.run([str(mkdocs), "build", "-q"], cwd=project, check=True,
                   env={**os.environ, "PYTHONWARNINGS": "ignore", "NO_MKDOCS_2_WARNING": "1"})
    seconds = time.perf_counter() - started
    pages = sum(1 for p in (project / "site").rglob("*.html") if p.name != "404.html")
    return seconds, pages


# ---------------------------------------------------------------------- reporting


def ruling_page_sizes(site: Path) -> list[int]:
    css = sum(p.stat().st_size for p in (site / "assets").glob("*.css"))
    return sorted(p.stat().st_size + css for lang in LANGS
                  for p in (site / lang / "rulings").glob("*/index.html"))


def describe_sizes(label: str, sizes: list[int]) -> None:
    over = sum(s >= TARGET_PAGE_BYTES for s in sizes)
    print(f"{label}: {len(sizes)} ruling pages, HTML+CSS min {sizes[0] / 1024:.1f} KiB, "
          f"median {statistics.median(sizes) / 1024:.1f} KiB, max {sizes[-1] / 1024:.1f} KiB; "
          f"{over} at or over {TARGET_PAGE_BYTES:,} bytes")


def timed_build(out: Path, root: Path, search: bool, jobs: int = 0
                ) -> tuple[BuildReport, float]:
    started = time.perf_counter()
    report = build_site(out, root=root, search=search, jobs=jobs)
    return report, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulings", type=int, default=1000)
    parser.add_argument("--no-mkdocs", action="store_true", help="skip the MkDocs comparison")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="judge-site-bench-"))
    try:
        corpus = work / "corpus"
        started = time.perf_counter()
        write_corpus(corpus, args.rulings, load_glossary())
        print(f"wrote {args.rulings} rulings in {time.perf_counter() - started:.1f} s "
              f"into {corpus}")

        runs = engine_runs()
        one, one_s = timed_build(work / "site-one", corpus, search=False, jobs=1)
        runs = engine_runs() - runs
        print(f"judge build --no-search --jobs 1: {one.summary()}; {one_s:.2f} s in all")
        site = load(corpus)  # not timed: for the old load's figure
        traces = site.corpus.trace_count
        old = 2 * traces + sum(len(d.scenario.steps) + 1 for d in site.rulings
                               for _ in d.replays)
        print(f"engine runs per site build: {runs:,} for {traces:,} (ruling, rule set, branch) "
              f"traces; the site's load before traces: {old:,} (2 x traces + every prefix "
              f"of the steps of each replay group; 1,551 on the project's corpus)")
        plain, plain_s = timed_build(work / "site-plain", corpus, search=False)
        print(f"judge build --no-search:          {plain.summary()}; {plain_s:.2f} s in all")
        full, full_s = timed_build(work / "site", corpus, search=True)
        print(f"judge build:                      {full.summary()}; {full_s:.2f} s in all")

        one_rate = one.pages / (one.seconds["context"] + one.seconds["render+write"])
        render_s = plain.seconds["context"] + plain.seconds["render+write"]
        judge_rate = plain.pages / render_s
        whole_rate = plain.pages / plain_s
        print(f"\njudge: {plain.pages} pages; rendering (context, render, write) "
              f"{render_s:.2f} s = {judge_rate:.0f} pages/s in {plain.processes} process(es) "
              f"({one_rate:.0f} pages/s in one); with parsing and replaying "
              f"{plain_s:.2f} s = {whole_rate:.0f} pages/s")
        ok = True
        if not args.no_mkdocs:
            project = work / "mkdocs"
            md_pages = write_markdown(project / "docs", load_corpus(corpus).rulings)
            mkdocs = mkdocs_venv(work)
            mk_s, mk_pages = run_mkdocs(mkdocs, project)
            mk_rate = mk_pages / mk_s
            print(f"mkdocs (Material, static-i18n, no search): {md_pages} Markdown pages -> "
                  f"{mk_pages} HTML pages in {mk_s:.2f} s = {mk_rate:.1f} pages/s")
            ratio = judge_rate / mk_rate
            print(f"ratio judge/mkdocs: {ratio:.1f}x rendering as judge build runs "
                  f"({plain.processes} process(es); {one_rate / mk_rate:.1f}x in one process, "
                  f"{whole_rate / mk_rate:.1f}x counting judge's parsing and replaying); "
                  f"target >= {TARGET_RATIO:.0f}x: {'met' if ratio >= TARGET_RATIO else 'MISSED'}")
            ok &= ratio >= TARGET_RATIO
        print(f"whole build of {args.rulings} rulings with the search index: {full_s:.1f} s; "
              f"target < {TARGET_BUILD_S:.0f} s: "
              f"{'met' if full_s < TARGET_BUILD_S else 'MISSED'}")
        ok &= full_s < TARGET_BUILD_S
        sizes = ruling_page_sizes(work / "site")
        describe_sizes("generated", sizes)
        ok &= sizes[-1] < TARGET_PAGE_BYTES
        real = work / "site-real"
        try:
            build_site(real, root=ROOT, allow_failing=True)
            real_sizes = ruling_page_sizes(real)
            describe_sizes("real corpus", real_sizes)
            ok &= real_sizes[-1] < TARGET_PAGE_BYTES
        except Exception as exc:  # the generated site above is the benchmark proper
            print(f"real corpus: not built ({exc})")
        css = sum(p.stat().st_size for p in assets_dir().glob("*.css"))
        print(f"(the stylesheet counted in each page is {css / 1024:.1f} KiB)")
        return 0 if ok else 1
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
