"""Output paths (issue 25): no command replaces or deletes what it did not make.

``judge build --out``, ``judge db --out``, ``judge search --index`` and ``judge check --junit``
write only where nothing is, where this tool's own output is (a site's ``.judge-site`` file,
a search index folder holding only the index's files, a database carrying judge db's
application id, a JUnit report whose root is judge check's), or with ``--force``; never into
a FIFO or a device, never into a folder holding ``.git``, never onto the rulings they read.
A symbolic link is never followed: ``--force`` replaces the link itself. A new file gets the
permissions of any new file (0666 less the umask), a replaced one keeps its own.

Each case runs ``judge`` in this process through :func:`judge.cli.main` (the layer that turns
errors into one line), as a user would meet it: exit status, standard error, and what is left
on disk.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FX_CORPUS, MILL, POWER

from judge.cli import main
from judge.site.build import BuildError, build_site

#: The rulings of the fixture corpus, and the one these tests aim outputs at.
RULING = Path("rulings") / "rules" / f"{POWER}.toml"


def judge(*args: str | Path) -> tuple[int, str, str]:
    """Run ``judge ARGS`` in this process: (exit status, standard output, standard error).

    An exception that escapes ``main`` (what a user would see as a traceback) fails the test."""
    argv = sys.argv
    sys.argv = ["judge", *map(str, args)]
    capture = _CAPTURE[0]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # a traceback
        out, err = capture.readouterr()
        pytest.fail(f"judge {' '.join(map(str, args))} raised {exc!r}\n{out}{err}")
    finally:
        sys.argv = argv
    out, err = capture.readouterr()
    return code, out, err


_CAPTURE: list[pytest.CaptureFixture[str]] = []


@pytest.fixture(autouse=True)
def _capture(capsys: pytest.CaptureFixture[str]) -> Iterator[None]:
    _CAPTURE[:] = [capsys]
    yield
    _CAPTURE.clear()


def refused(code: int, err: str, path: Path, force_helps: bool = True) -> None:
    """A one-line ``Error:`` naming ``path`` (and --force when it would help), exit 2."""
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), (code, err)
    assert str(path) in lines[0], lines[0]
    assert ("--force" in lines[0]) == force_helps, lines[0]
    assert "Traceback" not in err


def tree(folder: Path) -> dict[str, str]:
    """Every entry under ``folder`` (links not followed): path -> kind and SHA-256."""
    out = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[name] = f"link {os.readlink(path)}"
        elif path.is_file():
            out[name] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[name] = "folder" if path.is_dir() else stat.filemode(path.lstat().st_mode)
    return out


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture corpus; the current folder is its root."""
    root = tmp_path / "corpus"
    shutil.copytree(FX_CORPUS, root)
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def umask() -> Iterator[None]:
    """The usual umask (022) while the test runs."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def is_judge_db(path: Path) -> bool:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() \
            is not None
    finally:
        con.close()


# ---------------------------------------------------------------------- judge search --index


def test_search_index_into_the_rulings_deletes_nothing(corpus: Path) -> None:
    """``judge search refresh --index rulings`` left rulings/ holding only the index."""
    before = tree(corpus)
    for force in ((), ("--force",)):
        code, _, err = judge("search", "refresh", "--index", "rulings", *force)
        refused(code, err, corpus / "rulings", force_helps=False)
        assert "being read" in err
        assert tree(corpus) == before


def test_search_index_in_a_working_copy_deletes_nothing(corpus: Path) -> None:
    """``--index .`` in a folder with .git/ and notes deleted everything; a folder holding
    .git is refused even with --force, and so is one holding the rulings."""
    (corpus / ".git").mkdir()
    (corpus / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (corpus / "notes.txt").write_text("my notes", encoding="utf-8")
    before = tree(corpus)
    for force in ((), ("--force",)):
        code, _, err = judge("search", "refresh", "--index", ".", *force)
        refused(code, err, corpus, force_helps=False)
        assert tree(corpus) == before
    work = corpus.parent / "work"
    (work / ".git").mkdir(parents=True)
    (work / "notes.txt").write_text("my notes", encoding="utf-8")
    kept = tree(work)
    for force in ((), ("--force",)):
        code, _, err = judge("search", "refresh", "--index", work, *force)
        refused(code, err, work, force_helps=False)
        assert ".git" in err
        assert tree(work) == kept


def test_search_index_replaces_only_its_own_folder_or_with_force(corpus: Path) -> None:
    notes = corpus.parent / "notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("keep", encoding="utf-8")
    code, _, err = judge("search", "refresh", "--index", notes)
    refused(code, err, notes)
    assert tree(notes) == {"todo.txt": hashlib.sha256(b"keep").hexdigest()}
    # its own index is rebuilt in place, without --force
    index = corpus.parent / "index"
    assert judge("search", "refresh", "--index", index)[0] == 0
    assert sorted(p.name for p in index.iterdir()) == ["index.sqlite", "stamp.json"]
    code, out, err = judge("search", "refresh", "--index", index, "--rebuild")
    assert code == 0 and "search index rebuilt" in err, err
    assert sorted(p.name for p in index.iterdir()) == ["index.sqlite", "stamp.json"]
    # with --force the foreign folder is replaced
    code, out, err = judge("search", "refresh", "--index", notes, "--force")
    assert code == 0, err
    assert sorted(p.name for p in notes.iterdir()) == ["index.sqlite", "stamp.json"]
    assert sorted(p.name for p in corpus.parent.iterdir()) == ["corpus", "index", "notes"]


def test_search_index_onto_a_symlink_replaces_the_link_only_with_force(corpus: Path) -> None:
    notes = corpus.parent / "notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("keep", encoding="utf-8")
    link = corpus.parent / "index"
    link.symlink_to(notes, target_is_directory=True)
    code, _, err = judge("search", "refresh", "--index", link)
    refused(code, err, link)
    assert link.is_symlink()
    code, _, err = judge("search", "refresh", "--index", link, "--force")
    assert code == 0, err
    assert not link.is_symlink() and (link / "stamp.json").is_file()
    assert tree(notes) == {"todo.txt": hashlib.sha256(b"keep").hexdigest()}
    assert sorted(p.name for p in corpus.parent.iterdir()) == ["corpus", "index", "notes"]


def test_an_output_folder_never_replaces_the_current_folder(corpus: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    here = corpus.parent / "outer" / "here"
    here.mkdir(parents=True)
    (here / "notes.txt").write_text("mine", encoding="utf-8")
    monkeypatch.chdir(here)
    for args in (("search", "refresh", "--corpus", corpus, "--index", "."),
                 ("build", "--no-search", "--corpus", corpus, "--out", ".."),
                 ("build", "--no-search", "--corpus", corpus, "--out", here)):
        code, _, err = judge(*args, "--force")
        assert code == 2 and "Error: refusing to" in err, (args, err)
        assert "the current folder" in err, err
        assert (here / "notes.txt").read_text(encoding="utf-8") == "mine"


# ---------------------------------------------------------------------- judge db --out


def test_db_out_onto_a_text_file_is_refused_unless_forced(corpus: Path, umask: None) -> None:
    text = corpus.parent / "notes.txt"
    text.write_text("my notes", encoding="utf-8")
    text.chmod(0o640)
    code, _, err = judge("db", "--out", text)
    refused(code, err, text)
    assert text.read_text(encoding="utf-8") == "my notes"
    code, out, err = judge("db", "--out", text, "--force")
    assert code == 0, err
    assert is_judge_db(text)
    assert stat.S_IMODE(text.stat().st_mode) == 0o640  # a replaced file keeps its mode
    assert sorted(p.name for p in corpus.parent.iterdir()) == ["corpus", "notes.txt"]


def test_db_out_replaces_its_own_database_with_the_usual_permissions(corpus: Path,
                                                                      umask: None) -> None:
    out = corpus.parent / "judge.db"
    assert judge("db", "--out", out)[0] == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o644  # not mkstemp's 0600
    first = out.read_bytes()
    out.chmod(0o664)
    code, _, err = judge("db", "--out", out)  # its own: no --force needed
    assert code == 0, err
    assert out.read_bytes() == first and stat.S_IMODE(out.stat().st_mode) == 0o664
    os.umask(0o027)
    other = corpus.parent / "other.db"
    assert judge("db", "--out", other)[0] == 0
    assert stat.S_IMODE(other.stat().st_mode) == 0o640


def test_a_database_written_before_the_marker_is_still_judge_dbs(corpus: Path) -> None:
    """A database from an older judge db (no application id): its meta table says so."""
    out = corpus.parent / "judge.db"
    assert judge("db", "--out", out)[0] == 0
    con = sqlite3.connect(out)
    con.execute("PRAGMA application_id = 0")
    con.commit()
    con.close()
    code, _, err = judge("db", "--out", out)
    assert code == 0, err
    other = corpus.parent / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    con.commit()
    con.close()
    code, _, err = judge("db", "--out", other)
    refused(code, err, other)


def test_db_out_onto_a_fifo_is_refused_even_with_force(corpus: Path) -> None:
    fifo = corpus.parent / "pipe"
    os.mkfifo(fifo)
    for force in ((), ("--force",)):
        code, _, err = judge("db", "--out", fifo, *force)
        refused(code, err, fifo, force_helps=False)
        assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in corpus.parent.iterdir()) == ["corpus", "pipe"]


def test_db_out_onto_a_device_is_refused_even_with_force(corpus: Path) -> None:
    null = Path("/dev/null")
    assert stat.S_ISCHR(null.lstat().st_mode)
    code, _, err = judge("db", "--out", null, "--force")
    refused(code, err, null, force_helps=False)
    assert stat.S_ISCHR(null.lstat().st_mode)


def test_db_out_onto_a_symlink_replaces_the_link_only_with_force(corpus: Path,
                                                                 umask: None) -> None:
    target = corpus.parent / "precious.txt"
    target.write_text("precious", encoding="utf-8")
    target.chmod(0o600)
    link = corpus.parent / "link.db"
    link.symlink_to(target)
    code, _, err = judge("db", "--out", link)
    refused(code, err, link)
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "precious"
    code, _, err = judge("db", "--out", link, "--force")
    assert code == 0, err
    assert not link.is_symlink() and is_judge_db(link)
    assert stat.S_IMODE(link.stat().st_mode) == 0o644  # a new file, not the target's mode
    assert target.read_text(encoding="utf-8") == "precious"
    # a link to a database judge db wrote is not followed either
    db = corpus.parent / "real.db"
    assert judge("db", "--out", db)[0] == 0
    other = corpus.parent / "other-link.db"
    other.symlink_to(db)
    refused(*judge("db", "--out", other)[::2], other)
    assert other.is_symlink()


def test_db_out_onto_a_ruling_is_refused_even_with_force(corpus: Path) -> None:
    ruling = corpus / RULING
    before = tree(corpus)
    for force in ((), ("--force",)):
        code, _, err = judge("db", "--out", RULING, *force)
        refused(code, err, ruling, force_helps=False)
        code, _, err = judge("db", "--out", corpus / "rulings" / "new.db", *force)
        refused(code, err, corpus / "rulings" / "new.db", force_helps=False)
    assert tree(corpus) == before


# ---------------------------------------------------------------------- judge check --junit


def test_check_junit_onto_a_ruling_is_refused_even_with_force(corpus: Path) -> None:
    """``judge check rulings/refresh --junit rulings/refresh/<ruling>.toml`` replaced it."""
    ruling = Path("rulings") / "refresh" / f"{MILL}.toml"
    before = tree(corpus)
    for force in ((), ("--force",)):
        code, out, err = judge("check", "rulings/refresh", "--junit", ruling, *force)
        refused(code, err, corpus / ruling, force_helps=False)
        assert out == ""  # refused before any ruling was replayed
        code, _, err = judge("check", "rulings", "--junit", "rulings/report.xml", *force)
        refused(code, err, corpus / "rulings" / "report.xml", force_helps=False)
    assert tree(corpus) == before


def test_check_junit_replaces_its_own_report_or_with_force(corpus: Path, umask: None) -> None:
    report = corpus.parent / "report.xml"
    code, _, err = judge("check", "rulings", "--junit", report)
    assert code == 0, err
    assert stat.S_IMODE(report.stat().st_mode) == 0o644
    report.chmod(0o600)
    assert judge("check", "rulings", "--junit", report)[0] == 0  # its own report
    assert stat.S_IMODE(report.stat().st_mode) == 0o600
    notes = corpus.parent / "notes.xml"
    notes.write_text('<?xml version="1.0"?>\n<notes>mine</notes>\n', encoding="utf-8")
    code, out, err = judge("check", "rulings", "--junit", notes)
    refused(code, err, notes)
    assert out == "" and "mine" in notes.read_text(encoding="utf-8")
    assert judge("check", "rulings", "--junit", notes, "--force")[0] == 0
    assert 'testsuite name="judge-check"' in notes.read_text(encoding="utf-8")
    fifo = corpus.parent / "pipe"
    os.mkfifo(fifo)
    refused(*judge("check", "rulings", "--junit", fifo, "--force")[::2], fifo,
            force_helps=False)


# ---------------------------------------------------------------------- judge build --out


def test_build_out_refuses_a_working_copy_and_a_file_even_with_force(corpus: Path) -> None:
    site = corpus.parent / "site"
    (site / ".git").mkdir(parents=True)
    (site / ".judge-site").write_text("", encoding="utf-8")  # even with the site's marker
    (site / "index.html").write_text("published by hand", encoding="utf-8")
    before = tree(site)
    for force in ((), ("--force",)):
        code, _, err = judge("build", "--no-search", "--out", site, *force)
        refused(code, err, site, force_helps=False)
        assert ".git" in err and tree(site) == before
    text = corpus.parent / "site.txt"
    text.write_text("not a folder", encoding="utf-8")
    code, _, err = judge("build", "--no-search", "--out", text, "--force")
    assert code == 2 and err.strip().splitlines()[-1].startswith("Error: ") \
        and "is a file" in err, err  # click's usage error
    assert text.read_text(encoding="utf-8") == "not a folder"
    with pytest.raises(BuildError, match="it is a file, not a folder"):
        build_site(text, root=corpus, force=True)
    assert text.read_text(encoding="utf-8") == "not a folder"
    inside = corpus / "rulings" / "site"
    code, _, err = judge("build", "--no-search", "--out", inside, "--force")
    refused(code, err, inside, force_helps=False)
    assert not inside.exists()


def test_build_out_onto_a_symlink_replaces_the_link_only_with_force(corpus: Path) -> None:
    real = corpus.parent / "real"
    real.mkdir()
    (real / "notes.txt").write_text("keep", encoding="utf-8")
    link = corpus.parent / "site"
    link.symlink_to(real, target_is_directory=True)
    code, _, err = judge("build", "--no-search", "--out", link)
    refused(code, err, link)
    code, _, err = judge("build", "--no-search", "--out", link, "--force")
    assert code == 0, err
    assert not link.is_symlink() and (link / ".judge-site").is_file()
    assert tree(real) == {"notes.txt": hashlib.sha256(b"keep").hexdigest()}
    assert sorted(p.name for p in corpus.parent.iterdir()) == ["corpus", "real", "site"]


def test_build_out_replaces_a_foreign_folder_only_with_force(corpus: Path) -> None:
    site = corpus.parent / "site"
    site.mkdir()
    (site / "notes.txt").write_text("mine", encoding="utf-8")
    code, _, err = judge("build", "--no-search", "--out", site)
    refused(code, err, site)
    assert "not built by judge build" in err
    code, _, err = judge("build", "--no-search", "--out", site, "--force")
    assert code == 0, err
    assert (site / ".judge-site").is_file() and not (site / "notes.txt").exists()


# ---------------------------------------------------------------------- judge new


def test_new_never_replaces_a_link(corpus: Path) -> None:
    folder = corpus / "rulings" / "refresh"
    link = folder / "walk-test.toml"
    link.symlink_to(corpus.parent / "nowhere.toml")  # a dangling link
    code, _, err = judge("new", "walk-test", "--dir", folder)
    assert code == 2 and "already exists" in err, err
    assert link.is_symlink() and not (corpus.parent / "nowhere.toml").exists()


def test_a_killed_reports_temporary_file_is_removed_by_the_next_run(corpus: Path) -> None:
    report = corpus.parent / "report.xml"
    left = corpus.parent / ".report.xml.abcd1234.tmp"  # as a killed run leaves it
    left.write_text("<half", encoding="utf-8")
    keep = corpus.parent / ".report.xml.notmine.tmp"
    keep.write_text("mine", encoding="utf-8")
    assert judge("check", "rulings", "--junit", report)[0] == 0
    assert sorted(p.name for p in corpus.parent.iterdir()) == [
        ".report.xml.notmine.tmp", "corpus", "report.xml"]
