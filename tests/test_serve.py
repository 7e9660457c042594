"""``judge serve`` (judge/site/serve.py): a busy port is refused before anything is built, a
bad request gets 400 and never a traceback, and each file comes with the cache headers that
keep a returning visitor's pages fresh: ``no-cache`` and a strong ``ETag`` for every file but
those whose name carries a hash of their content, which may be kept.

The server runs in this process on a free port, on a small folder laid out like a site; the
port test runs ``judge serve`` itself."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.utils import formatdate
from pathlib import Path

import pytest

from judge.paths import project_root
from judge.site.serve import IMMUTABLE, MAX_TARGET, start_server

#: A site's files: a page, the worker, an asset, a search index's entry and its parts.
FILES = {
    "index.html": "<!doctype html><title>home</title>\n",
    "en/rulings/refresh-steps/index.html": "<!doctype html><title>a ruling</title>\n",
    "sw.js": "// the worker\n",
    "assets/site.css": "body { margin: 0 }\n",
    "en/pagefind/pagefind-entry.json": '{"languages": {}}\n',
    "en/pagefind/pagefind.js": "// pagefind\n",
    "en/pagefind/pagefind.en_7329116b6d.pf_meta": "meta",
    "en/pagefind/index/en_5d6fe02.pf_index": "index",
    "en/pagefind/fragment/en_f76197f.pf_fragment": "fragment",
    "en/pagefind/filter/en_41ca593.pf_filter": "filter",
}
#: Files whose name carries a hash of their content: kept for long.
HASHED = {name for name in FILES if ".pf_" in name}
A_DAY_AGO = time.time() - 86_400


def lay_out(root: Path) -> Path:
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        os.utime(path, (A_DAY_AGO, A_DAY_AGO))
    return root


@contextmanager
def serving(root: Path) -> Iterator[int]:
    server = start_server(root, 0)
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The port of a server of a site that no test changes."""
    with serving(lay_out(tmp_path_factory.mktemp("serve") / "site")) as number:
        yield number


def ask(port: int, target: bytes | str, method: str = "GET",
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """Send one request as raw bytes (any target, however broken); (status, headers, body)."""
    if isinstance(target, str):
        target = target.encode("utf-8")
    lines = [method.encode() + b" " + target + b" HTTP/1.1", b"Host: 127.0.0.1",
             b"Connection: close"]
    lines += [f"{k}: {v}".encode() for k, v in (headers or {}).items()]
    return exchange(port, b"\r\n".join(lines) + b"\r\n\r\n")


def exchange(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *fields = head.decode("latin-1").split("\r\n")
    found = {}
    for field in fields:
        name, _, value = field.partition(":")
        found[name.strip().lower()] = value.strip()
    return int(status.split()[1]), found, body


# ---------------------------------------------------------------------------- a busy port


def test_a_busy_port_is_refused_in_one_line_before_anything_is_built(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "judge.cli", "serve", "--port", str(busy), "--out",
             str(tmp_path / "site"), "--corpus",
             str(project_root() / "tests" / "fixtures" / "site_corpus")],
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
            env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert done.returncode != 0
    assert done.stderr == (f"Error: port {busy} on 127.0.0.1 is in use (choose another with "
                           "--port, or --port 0 for any free one)\n")
    assert done.stdout == ""
    assert not (tmp_path / "site").exists()  # refused before the build, which writes it


# ---------------------------------------------------------------------------- bad requests

BAD_TARGETS = [
    "/a%00b", "/%00", "/index.html%00.txt", "/index.html?q=%00", b"/a\x00b",
    "/%zz", "/%", "/a%2", "/%e3%81", "/%ff", "/%01", "/%7f",
    "/" + "a" * 300, "/en/" + "x" * 256 + "/index.html", "/" + "a/" * MAX_TARGET,
    "/" + "a" * 65_000,
]


@pytest.mark.parametrize("target", BAD_TARGETS, ids=lambda t: repr(t)[:40])
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_bad_request_gets_400_and_no_traceback(
        port: int, target: str | bytes, method: str, capfd: pytest.CaptureFixture[str]) -> None:
    status, headers, body = ask(port, target, method)
    assert status == 400
    assert headers.get("cache-control") == "no-cache"
    if method == "GET":
        assert b"Bad request" in body
    # the server answers the next request as ever, and wrote no traceback
    assert ask(port, "/sw.js")[0] == 200
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "Error" not in err


def test_a_request_line_past_64_kib_gets_400_as_well(port: int) -> None:
    # the standard library reads 65,537 bytes of a request line, then answers 414 itself
    status, headers, body = exchange(port, b"GET /" + b"a" * 65_532)
    assert status == 400 and b"too long" in body
    assert headers["cache-control"] == "no-cache"


def test_plain_and_encoded_addresses_are_still_served(port: int) -> None:
    assert ask(port, "/")[2] == FILES["index.html"].encode()
    assert ask(port, "/en/rulings/refresh-steps/")[0] == 200
    assert ask(port, "/en/rulings/refresh-steps/?q=%E3%83%AA%20a")[0] == 200
    assert ask(port, "/%65n/rulings/refresh-steps/index.html")[0] == 200  # %65: "e"
    status, headers, _ = ask(port, "/en/rulings/refresh-steps")
    assert status == 301 and headers["location"] == "/en/rulings/refresh-steps/"
    assert ask(port, "/missing.html")[0] == 404
    assert ask(port, "/../../etc/passwd")[0] == 404


# ---------------------------------------------------------------------------- cache headers


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_file_has_the_cache_headers_that_fit(port: int, name: str) -> None:
    address = "/" + name.removesuffix("index.html")
    status, headers, body = ask(port, address)
    assert status == 200 and body == FILES[name].encode()
    if name in HASHED:  # a new index names its parts anew: these never change
        assert headers["cache-control"] == IMMUTABLE
    else:  # pages, the worker, assets, the index's entry: asked for again every time
        assert headers["cache-control"] == "no-cache"
    tag = headers["etag"]
    assert tag.startswith('"') and tag.endswith('"') and len(tag) > 10  # strong
    assert headers["last-modified"] == formatdate(int(A_DAY_AGO), usegmt=True)
    # asked again with what the browser kept: 304, no body, the same headers
    status, again, body = ask(port, address, headers={"If-None-Match": tag})
    assert (status, body) == (304, b"")
    assert again["etag"] == tag and again["cache-control"] == headers["cache-control"]
    assert ask(port, address, headers={"If-None-Match": f'W/{tag}, "other"'})[0] == 304
    assert ask(port, address, headers={"If-None-Match": '"other"'})[0] == 200
    assert ask(port, address, headers={"If-Modified-Since": headers["last-modified"]})[0] == 304
    assert ask(port, address, method="HEAD", headers={"If-None-Match": tag})[0] == 304


def test_a_rebuilt_file_is_sent_anew_and_an_unchanged_one_is_not(tmp_path: Path) -> None:
    site = lay_out(tmp_path / "site")
    with serving(site) as port:
        rebuild_and_ask_again(site, port)


def rebuild_and_ask_again(site: Path, port: int) -> None:
    page = "/en/rulings/refresh-steps/"
    _, before, _ = ask(port, page)
    _, entry, _ = ask(port, "/en/pagefind/pagefind-entry.json")
    # a rebuild writes every file anew: this page changes, the entry keeps its bytes
    (site / "en/rulings/refresh-steps/index.html").write_text("<title>edited</title>\n",
                                                               encoding="utf-8")
    (site / "en/pagefind/pagefind-entry.json").write_text(
        FILES["en/pagefind/pagefind-entry.json"], encoding="utf-8")
    status, after, body = ask(port, page, headers={
        "If-None-Match": before["etag"], "If-Modified-Since": before["last-modified"]})
    assert (status, body) == (200, b"<title>edited</title>\n")
    assert after["etag"] != before["etag"]
    # the old date alone would not do either: the file is newer
    assert ask(port, page, headers={"If-Modified-Since": before["last-modified"]})[0] == 200
    # the same bytes: the same tag, whatever the new date says
    status, again, _ = ask(port, "/en/pagefind/pagefind-entry.json",
                           headers={"If-None-Match": entry["etag"]})
    assert status == 304 and again["etag"] == entry["etag"]
    assert again["last-modified"] != entry["last-modified"]


def test_redirects_and_errors_are_not_kept_either(port: int) -> None:
    for target in ("/en/rulings/refresh-steps", "/missing.html", "/%00"):
        assert ask(port, target)[1]["cache-control"] == "no-cache", target
