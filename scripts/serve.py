"""Serves a directory as a static host serves the site: gzip for text and wasm when the
browser accepts it, a year of cache for files whose names carry a content hash (trunk's
`name-0123456789abcdef.ext`), and revalidation for everything else (the pages, the
service worker, the lessons, the language packs).

`python3 -m http.server` sends neither, so a first page measured through it looks slower
than learners see it; scripts/serve and scripts/bench serve through this instead.

usage: python3 scripts/serve.py DIR PORT [--quiet]
"""

import gzip
import http.server
import os
import re
import sys
from functools import lru_cache

HASHED = re.compile(r"-[0-9a-f]{12,16}(_bg)?\.(js|wasm|css)$")
COMPRESSIBLE = (".html", ".js", ".css", ".json", ".wasm", ".svg", ".webmanifest", ".txt", ".xml")


@lru_cache(maxsize=256)
def gzipped(path, mtime):
    """The file gzipped at level 9 (what scripts/size measures), kept while it is unchanged."""
    with open(path, "rb") as f:
        return gzip.compress(f.read(), compresslevel=9, mtime=0)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json",
        ".js": "text/javascript",
    }
    quiet = False

    def end_headers(self):
        name = self.path.split("?", 1)[0]
        if HASHED.search(name):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.endswith(COMPRESSIBLE) and os.path.isfile(path)):
            return super().send_head()
        body = gzipped(path, os.path.getmtime(path))
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)

    def log_message(self, *args):
        if not self.quiet:
            super().log_message(*args)


class _Body:
    """A file-like body for SimpleHTTPRequestHandler.copyfile."""

    def __init__(self, data):
        self.data = data

    def read(self, n=-1):
        data, self.data = (self.data, b"") if n < 0 else (self.data[:n], self.data[n:])
        return data

    def close(self):
        pass


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    directory, port = sys.argv[1], int(sys.argv[2])
    Handler.quiet = "--quiet" in sys.argv
    handler = lambda *a, **k: Handler(*a, directory=directory, **k)  # noqa: E731
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
