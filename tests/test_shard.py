"""judge build --shard K/N and judge merge-site: parts that make the same site as one build."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from judge.paths import project_root
from judge.site.build import MARKER, BuildError, build_site
from judge.site.shard import PART_MARKER, Shard, build_part, merge_site

FIXTURE = project_root() / "tests" / "fixtures" / "site_corpus"


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (by its path from there) and its bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def same_tree(a: Path, b: Path) -> None:
    left, right = tree(a), tree(b)
    assert sorted(left) == sorted(right)
    differ = [name for name in left if left[name] != right[name]]
    assert differ == []


def parts(corpus: Path, folder: Path, count: int) -> list[Path]:
    out = []
    for k in range(1, count + 1):
        build_part(folder / f"part{k}", Shard(k, count), root=corpus)
        out.append(folder / f"part{k}")
    return out


@pytest.fixture(scope="module")
def corpus_plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("plain") / "site"
    build_site(out, root=project_root())
    return out


@pytest.mark.parametrize("count", [2, 3])
def test_parts_merge_into_the_plain_build_of_the_corpus(
        corpus_plain: Path, tmp_path: Path, count: int) -> None:
    folders = parts(project_root(), tmp_path, count)
    held = [json.loads((f / PART_MARKER).read_text(encoding="utf-8"))["rulings"]
            for f in folders]
    everyone = sorted(r for ids in held for r in ids)
    assert len(everyone) == len(set(everyone))  # each ruling in one part only
    assert everyone == sorted(p.name for p in (corpus_plain / "en" / "rulings").iterdir()
                              if p.is_dir())
    assert max(map(len, held)) - min(map(len, held)) <= 1  # dealt evenly
    merge_site(list(reversed(folders)), tmp_path / "site", root=project_root())
    same_tree(corpus_plain, tmp_path / "site")


def test_fixture_merge_with_search_equals_plain_build(tmp_path: Path) -> None:
    build_site(tmp_path / "plain", root=FIXTURE, search=True)
    folders = parts(FIXTURE, tmp_path, 2)
    # a part holds only its rulings' pages and API files, never a whole site
    assert not (folders[0] / MARKER).exists()
    assert not (folders[0] / "index.html").exists()
    assert sorted((folders[0] / "api" / "rulings").iterdir())
    merge_site(folders, tmp_path / "site", root=FIXTURE, search=True)
    same_tree(tmp_path / "plain", tmp_path / "site")
    # built again over the previous part and site: allowed, and the same bytes
    build_part(folders[0], Shard(1, 2), root=FIXTURE)
    merge_site(folders, tmp_path / "site", root=FIXTURE, search=True)
    same_tree(tmp_path / "plain", tmp_path / "site")


@pytest.mark.parametrize("text", ["0/2", "3/2", "2", "a/b", "1/0", "-1/2", "1/2/3", ""])
def test_bad_shard_is_one_line_naming_the_form(text: str) -> None:
    with pytest.raises(BuildError, match=r"expected K/N, two whole numbers with 1 <= K <= N"):
        Shard.parse(text)


def test_shard_parse_and_dealing() -> None:
    assert Shard.parse("2/3") == Shard(2, 3)
    assert Shard.parse(" 1 / 1 ") == Shard(1, 1)


def test_merge_refuses_missing_duplicate_and_foreign_parts(tmp_path: Path) -> None:
    folders = parts(FIXTURE, tmp_path, 3)
    with pytest.raises(BuildError, match=r"part\(s\) 2 of 3 missing"):
        merge_site([folders[0], folders[2]], tmp_path / "site", root=FIXTURE)
    with pytest.raises(BuildError, match=r"are both part 1/3"):
        merge_site([folders[0], folders[0], folders[1], folders[2]], tmp_path / "site",
                   root=FIXTURE)
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(BuildError, match=r"not a part built by judge build --shard"):
        merge_site([*folders, other], tmp_path / "site", root=FIXTURE)
    two = tmp_path / "two"
    build_part(two, Shard(1, 2), root=FIXTURE)
    with pytest.raises(BuildError, match=r"different numbers"):
        merge_site([*folders, two], tmp_path / "site", root=FIXTURE)
    page = next((folders[1] / "en" / "rulings").iterdir()) / "index.html"
    page.unlink()
    with pytest.raises(BuildError, match=r"index.html is missing; build the part again"):
        merge_site(folders, tmp_path / "site", root=FIXTURE)
    assert not (tmp_path / "site").exists()  # nothing written by a refused merge
    marker = folders[0] / PART_MARKER
    data = json.loads(marker.read_text(encoding="utf-8"))
    marker.write_text(json.dumps({**data, "corpus": "0" * 16}), encoding="utf-8")
    with pytest.raises(BuildError, match=r"different versions of the corpus"):
        merge_site(folders, tmp_path / "site", root=FIXTURE)


def test_part_follows_the_output_policy(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(BuildError, match=r"no \.judge-part file"):
        build_part(mine, Shard(1, 2), root=FIXTURE)
    assert (mine / "notes.txt").read_text(encoding="utf-8") == "keep me"
    build_part(mine, Shard(1, 2), root=FIXTURE, force=True)
    assert (mine / PART_MARKER).is_file() and not (mine / "notes.txt").exists()
    # a site is not a part, nor a part a site
    build_site(tmp_path / "site", root=FIXTURE)
    with pytest.raises(BuildError, match=r"no \.judge-part file"):
        build_part(tmp_path / "site", Shard(1, 2), root=FIXTURE)
    with pytest.raises(BuildError, match=r"no \.judge-site file"):
        build_site(mine, root=FIXTURE)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge.cli", *args], capture_output=True,
                          text=True, check=False, cwd=project_root())


def test_cli_bad_shard_is_one_line(tmp_path: Path) -> None:
    done = run("build", "--shard", "4/3", "--out", str(tmp_path / "p"), "--corpus",
               str(FIXTURE))
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "Error: --shard '4/3': expected K/N, two whole numbers with 1 <= K <= N (e.g. 2/3)"]
    assert not (tmp_path / "p").exists()


def test_cli_shard_refuses_options_a_part_ignores(tmp_path: Path) -> None:
    done = run("build", "--shard", "1/2", "--no-search", "--out", str(tmp_path / "p"))
    assert done.returncode == 2
    assert "--no-search cannot be used with --shard" in done.stderr
    assert not (tmp_path / "p").exists()


def test_cli_shard_and_merge(tmp_path: Path) -> None:
    for k in (1, 2):
        done = run("build", "--shard", f"{k}/2", "--out", str(tmp_path / f"p{k}"), "--corpus",
                   str(FIXTURE))
        assert done.returncode == 0, done.stderr
        assert f"built part {k}/2" in done.stdout
    done = run("merge-site", str(tmp_path / "p1"), str(tmp_path / "p2"), "--out",
               str(tmp_path / "site"), "--corpus", str(FIXTURE), "--no-search")
    assert done.returncode == 0, done.stderr
    build_site(tmp_path / "plain", root=FIXTURE)
    same_tree(tmp_path / "plain", tmp_path / "site")
    done = run("merge-site", str(tmp_path / "p1"), "--out", str(tmp_path / "site2"),
               "--corpus", str(FIXTURE))
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "Error: part(s) 2 of 2 missing (judge build --shard K/2)"]
