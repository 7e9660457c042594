"""``judge serve``: build, serve the folder on 127.0.0.1, rebuild when an input changes.

The server is the standard library's ``http.server`` in a background thread; the main thread
polls the modification times of the rulings, the data and the templates once a second and
rebuilds when one changed (or a file appeared or went away). A rebuild that fails prints why
and keeps serving the previous site, since the build only swaps a complete new folder in.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from judge.corpus import default_root
from judge.paths import data_dir
from judge.site.render import templates_dir

#: Content types of the site's files, whatever the system's ``mime.types`` says: the service
#: worker must be served as JavaScript (browsers refuse to register it otherwise), and the
#: API, the database and the search index as what they are.
CONTENT_TYPES: dict[str, str] = {
    ".js": "text/javascript", ".css": "text/css", ".html": "text/html",
    ".json": "application/json", ".wasm": "application/wasm",
    ".md": "text/markdown; charset=utf-8", ".db": "application/vnd.sqlite3",
    ".pagefind": "application/octet-stream", ".pf_meta": "application/octet-stream",
    ".pf_index": "application/octet-stream", ".pf_fragment": "application/octet-stream",
    ".pf_filter": "application/octet-stream",
}


class QuietHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **CONTENT_TYPES}

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass


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


def start_server(folder: Path, port: int = 8000) -> ThreadingHTTPServer:
    """Serve ``folder`` on 127.0.0.1 in a daemon thread (port 0: any free port). The site's
    root is the server's root, so the service worker (``/sw.js``) covers the whole site."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = QuietServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, name="judge-serve", daemon=True)
    thread.start()
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
          interval: float = 1.0) -> None:
    """Call ``rebuild`` whenever a watched file changes, until ``stop`` is set."""
    seen = watched_files(root)
    while not stop.wait(interval):
        now = watched_files(root)
        if now != seen:
            seen = now
            rebuild()
