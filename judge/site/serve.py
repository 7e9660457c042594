"""``judge serve``: build, serve the folder on 127.0.0.1, rebuild when an input changes.

The port is taken first (:func:`bind_server`): a port in use is a one-line
:class:`PortInUse` before anything is built. The server is the standard library's
``http.server`` in a background thread (:func:`serve_in_background`); the main thread polls
the modification times of the rulings, the data and the templates once a second and rebuilds
when one changed (or a file appeared or went away). A rebuild that fails prints why and keeps
serving the previous site, since the build only swaps a complete new folder in.

What the server answers (:class:`SiteHandler`):

- a bad request (:func:`bad_target`: a NUL or ``%00`` anywhere in the address, malformed
  percent-encoding or bytes that are not UTF-8 in its path, an address longer than
  :data:`MAX_TARGET` characters or a name longer than :data:`MAX_NAME` bytes): ``400``,
  never a traceback;
- a file: with a strong ``ETag`` (a hash of its bytes, so that a rebuild that leaves a file
  as it was still answers ``304``) and ``Last-Modified``, and the ``Cache-Control`` of
  ``Cache-Control: no-cache`` (:data:`REVALIDATE`): every file of the site (the pages, the
  service worker, the search index, the assets) keeps its name from one build to the next, so
  a browser may keep it but asks for it again each time, which costs a ``304`` when it did not
  change. So a rebuilt page or index is what a returning visitor gets (docs/site.md,
  "Caching").
"""

from __future__ import annotations

import datetime
import email.utils
import errno
import functools
import hashlib
import os
import re
import stat
import sys
import threading
import urllib.parse
from collections import OrderedDict
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any, BinaryIO

from judge.corpus import default_root
from judge.errors import JudgeError
from judge.paths import data_dir
from judge.site.render import templates_dir

#: The only address the server listens on.
HOST = "127.0.0.1"
#: Content types of the site's files, whatever the system's ``mime.types`` says: the service
#: worker must be served as JavaScript (browsers refuse to register it otherwise), and the
#: API, the database and the search index as what they are.
CONTENT_TYPES: dict[str, str] = {
    ".js": "text/javascript", ".css": "text/css", ".html": "text/html",
    ".json": "application/json", ".wasm": "application/wasm",
    ".md": "text/markdown; charset=utf-8", ".db": "application/vnd.sqlite3",
    ".gz": "application/gzip",
}
#: The longest address (path and query) answered; the site's longest is far shorter.
MAX_TARGET = 2048
#: The longest name (between two ``/``) of a path, in bytes: what a file system allows.
MAX_NAME = 255
#: ``Cache-Control`` of every file: kept, but asked for again each time.
REVALIDATE = "no-cache"
#: ``%`` not followed by two hexadecimal digits.
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


class PortInUse(JudgeError):
    """The port ``judge serve`` was asked for cannot be listened on."""


def bad_target(target: str) -> str:
    """Why the request target ``target`` (a request line's path and query) is refused, in a
    few words, or empty when it is a plain address.

    >>> bad_target("/en/rulings/refresh-steps/?q=a%20b"), bad_target("/a%00b")
    ('', 'a NUL in the address')
    >>> bad_target("/%zz"), bad_target("/%ff")
    ('malformed percent-encoding in the address', 'the address is not UTF-8')
    """
    if len(target) > MAX_TARGET:
        return f"the address is longer than {MAX_TARGET} characters"
    if "\0" in target or "%00" in target:
        return "a NUL in the address"
    path = target.split("?", 1)[0].split("#", 1)[0]
    if _BAD_ESCAPE.search(path):
        return "malformed percent-encoding in the address"
    try:
        text = urllib.parse.unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        return "the address is not UTF-8"
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text):
        return "a control character in the address"
    if any(len(name.encode("utf-8")) > MAX_NAME for name in text.split("/")):
        return f"a name longer than {MAX_NAME} bytes in the address"
    return ""


#: Entity tags of the files served, by (device, inode, size, modification and change time):
#: a file's bytes are hashed once, not on each request.
_TAGS: OrderedDict[tuple[int, int, int, int, int], str] = OrderedDict()
_TAGS_LOCK = threading.Lock()
_TAGS_KEPT = 20_000


def entity_tag(handle: IO[bytes], info: os.stat_result) -> str:
    """A strong ``ETag`` of the open file ``handle``: a hash of its bytes (the same bytes,
    the same tag, in this build or the next)."""
    key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    with _TAGS_LOCK:
        tag = _TAGS.get(key)
        if tag is not None:
            _TAGS.move_to_end(key)
            return tag
    digest = hashlib.sha256()
    offset = 0
    while chunk := os.pread(handle.fileno(), 1 << 20, offset):
        digest.update(chunk)
        offset += len(chunk)
    tag = f'"{digest.hexdigest()[:32]}"'
    with _TAGS_LOCK:
        _TAGS[key] = tag
        while len(_TAGS) > _TAGS_KEPT:
            _TAGS.popitem(last=False)
    return tag


def _matches(header: str, tag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``tag`` (weak comparison, as RFC 9110 asks
    of this header)."""
    listed = [t.strip() for t in header.split(",")]
    return "*" in listed or tag in {t[2:] if t.startswith("W/") else t for t in listed}


def _not_modified_since(header: str, mtime: float) -> bool:
    try:
        since = email.utils.parsedate_to_datetime(header)
    except (TypeError, IndexError, OverflowError, ValueError):
        return False  # an ill-formed date is ignored
    if since.tzinfo is None:
        since = since.replace(tzinfo=datetime.UTC)
    modified = datetime.datetime.fromtimestamp(mtime, datetime.UTC)
    return modified.replace(microsecond=0) <= since


class SiteHandler(SimpleHTTPRequestHandler):
    """The standard library's file handler, with the site's content types, ``400`` for a
    bad request and the cache headers of the module's docstring; it logs nothing."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **CONTENT_TYPES}
    #: whether this response's ``Cache-Control`` is written (else :meth:`end_headers` adds
    #: :data:`REVALIDATE`: redirects, listings and errors are never kept either)
    _cache_sent = False

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        problem = bad_target(self.path)
        if problem:
            self.send_error(HTTPStatus.BAD_REQUEST, f"Bad request: {problem}")
            return False
        return True

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        if code == HTTPStatus.REQUEST_URI_TOO_LONG:  # a request line over 64 KiB
            code, message = HTTPStatus.BAD_REQUEST, "Bad request: the address is too long"
        super().send_error(code, message, explain)

    def send_response(self, code: int, message: str | None = None) -> None:
        self._cache_sent = False
        super().send_response(code, message)

    def end_headers(self) -> None:
        if not self._cache_sent:
            self.send_header("Cache-Control", REVALIDATE)
        super().end_headers()

    def send_head(self) -> BinaryIO | None:
        """The base's, with an ``ETag``, ``If-None-Match`` and ``Cache-Control``."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            index = os.path.join(path, "index.html")
            if not urllib.parse.urlsplit(self.path).path.endswith("/") or \
                    not os.path.isfile(index):
                return super().send_head()  # the redirect to "folder/", or a listing
            path = index
        if path.endswith("/"):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            handle = open(path, "rb")  # noqa: SIM115 - the caller copies and closes it
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                handle.close()
                self.send_error(HTTPStatus.NOT_FOUND, "File not found")
                return None
            tag = entity_tag(handle, info)
            match, since = self.headers.get("If-None-Match"), self.headers.get("If-Modified-Since")
            fresh = _matches(match, tag) if match is not None else \
                since is not None and _not_modified_since(since, info.st_mtime)
            self.send_response(HTTPStatus.NOT_MODIFIED if fresh else HTTPStatus.OK)
            self.send_header("ETag", tag)
            self.send_header("Last-Modified", self.date_time_string(info.st_mtime))
            self.send_header("Cache-Control", REVALIDATE)
            self._cache_sent = True
            if fresh:
                self.end_headers()
                handle.close()
                return None
            self.send_header("Content-type", self.guess_type(path))
            self.send_header("Content-Length", str(info.st_size))
            self.end_headers()
            return handle
        except BaseException:
            handle.close()
            raise


class QuietServer(ThreadingHTTPServer):
    #: Connections waiting to be accepted. The default (5) is too few for a browser whose
    #: service worker keeps a language's search: it asks for hundreds of files at once, and
    #: a page opened meanwhile can find the queue full and fail to load.
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that closes a connection early (a page left while it loads) is not an
        error worth a traceback; anything else is reported as usual."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def bind_server(folder: Path, port: int = 8000) -> QuietServer:
    """A server for ``folder`` listening on 127.0.0.1:``port`` (0: any free port), not yet
    answering (connections wait until :func:`serve_in_background`); :class:`PortInUse`
    when the port cannot be had. ``judge serve`` calls it before it builds."""
    handler = functools.partial(SiteHandler, directory=str(folder))
    try:
        return QuietServer((HOST, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PortInUse(f"port {port} on {HOST} is in use (choose another with --port, "
                            "or --port 0 for any free one)") from None
        raise PortInUse(f"cannot listen on port {port} on {HOST}: "
                        f"{exc.strerror or exc}") from None


def serve_in_background(server: ThreadingHTTPServer) -> None:
    """Answer ``server``'s requests in a daemon thread until ``server.shutdown()``."""
    thread = threading.Thread(target=server.serve_forever, name="judge-serve", daemon=True)
    thread.start()


def start_server(folder: Path, port: int = 8000) -> ThreadingHTTPServer:
    """Serve ``folder`` on 127.0.0.1 in a daemon thread (port 0: any free port). The site's
    root is the server's root, so the service worker (``/sw.js``) covers the whole site."""
    server = bind_server(folder, port)
    serve_in_background(server)
    return server


def watched_files(root: Path | None = None) -> dict[str, float]:
    """Modification times of every file under rulings/, data/ and the templates."""
    root = (root or default_root()).resolve()
    stamps: dict[str, float] = {}
    for folder in (root / "rulings", data_dir(), templates_dir()):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                try:
                    stamps[str(path)] = path.stat().st_mtime
                except OSError:
                    continue
    return stamps


def watch(rebuild: Callable[[], None], root: Path | None, stop: threading.Event,
          interval: float = 1.0, seen: dict[str, float] | None = None) -> None:
    """Call ``rebuild`` whenever a watched file changes, until ``stop`` is set; ``seen``:
    the files as they were when the build being served began (default: as they are now)."""
    if seen is None:
        seen = watched_files(root)
    while not stop.wait(interval):
        now = watched_files(root)
        if now != seen:
            seen = now
            rebuild()
