#!/usr/bin/env python3
"""Trunk post-build hook: adds a Content-Security-Policy <meta> to each built page.

Trunk writes one inline module script (the wasm loader) whose text changes with every
build's hashed file names, so the policy allows exactly that script by its SHA-256 and
nothing else inline. Runs from Trunk.toml on `trunk build` and `trunk serve` alike.
"""
import base64
import hashlib
import os
import re
import sys

POLICY = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval' {hashes}",
    "style-src 'self'",
    # The timeline's tick marks are placed with style attributes; no <style> element is.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    # Same-origin workers only: the service worker (sw.js) and the explorer's web workers
    # (fencing-explore-worker_loader.js). A meta policy cannot name a file without the
    # host, and the site may be served from any host and sub-path.
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
]


def main() -> int:
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        print("csp.py: TRUNK_STAGING_DIR is not set (run it from trunk)", file=sys.stderr)
        return 1
    # index.html, or lab.html for the lab's build (`--html-output lab.html`).
    pages = sorted(name for name in os.listdir(staging) if name.endswith(".html"))
    if not pages:
        print("csp.py: no built page in the staging folder", file=sys.stderr)
        return 1
    for name in pages:
        if add_policy(os.path.join(staging, name)) != 0:
            return 1
    return 0


def add_policy(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        html = f.read()
    scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", html, flags=re.S)
    if not scripts:
        print(f"csp.py: no inline script in {path}; trunk's output changed?", file=sys.stderr)
        return 1
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode() + "'"
        for s in scripts
    )
    policy = "; ".join(POLICY).format(hashes=hashes)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    # The charset <meta>, as written or as minified (`<meta charset=utf-8>`).
    html, n = re.subn(r"(<meta charset[^>]*>)", r"\1" + meta, html, count=1)
    if n != 1:
        print(f"csp.py: no <meta charset> to follow in {path}", file=sys.stderr)
        return 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    return 0


if __name__ == "__main__":
    sys.exit(main())
