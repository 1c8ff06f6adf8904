#!/usr/bin/env python3
"""Last step of scripts/build: makes dist/ work offline after one visit.

Copies the web manifest, its icon and embed.js (the one-script-tag embed), writes the
scenario format's documentation as a page the sandbox links to, and writes dist/sw.js from static/sw.js with the
list of files the service worker precaches (both pages and their hashed bundles, the
lessons, the language packs, embed.js) and a version made from their contents, so every
deploy gets its own cache. The course page's files are left out: only LMS packages use them.
"""
import hashlib
import html
import json
import os
import shutil
import sys

DIST = "dist"


def main() -> int:
    for name in ("manifest.webmanifest", "icon.svg", "embed.js"):
        shutil.copy(os.path.join("static", name), os.path.join(DIST, name))
    # The scenario format's documentation, readable from the sandbox on any static host
    # (its Markdown as preformatted text: every character as written, nothing rendered).
    with open(os.path.join("docs", "scenario-format.md"), encoding="utf-8") as f:
        doc = f.read()
    with open(os.path.join(DIST, "scenario-format.html"), "w", encoding="utf-8") as f:
        f.write('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
                '<meta name="viewport" content="width=device-width, initial-scale=1">'
                # Nothing runs on it: no script at all, styles only in attributes.
                '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
                "img-src 'self'; style-src-attr 'unsafe-inline'; base-uri 'none'; form-action 'none'\">"
                '<link rel="icon" href="icon.svg">'
                "<title>Fencing Token Playground: the scenario format</title></head>\n"
                '<body style="margin:1rem auto;max-width:56rem;padding:0 1rem">'
                '<pre style="white-space:pre-wrap;font:0.95rem/1.45 ui-monospace,monospace">'
                + html.escape(doc) + "</pre></body></html>\n")
    files = []
    for root, _, names in os.walk(DIST):
        for name in names:
            path = os.path.relpath(os.path.join(root, name), DIST).replace(os.sep, "/")
            if name in (".trunk-lock", "sw.js") or name.startswith("course") or name.startswith("fencing-course-"):
                continue
            files.append(path)
    files.sort()
    if "index.html" not in files or "lab.html" not in files:
        print("offline.py: dist/ lacks index.html or lab.html; run the trunk builds first", file=sys.stderr)
        return 1
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.encode())
        with open(os.path.join(DIST, path), "rb") as f:
            digest.update(hashlib.sha256(f.read()).digest())
    version = digest.hexdigest()[:16]
    with open(os.path.join("static", "sw.js"), encoding="utf-8") as f:
        worker = f.read()
    # "./" is the page a visitor opens (the folder); index.html is the same page by name.
    worker = worker.replace("%VERSION%", version).replace("%FILES%", json.dumps(["./"] + files))
    with open(os.path.join(DIST, "sw.js"), "w", encoding="utf-8") as f:
        f.write(worker)
    print(f"offline.py: sw.js precaches {len(files) + 1} files (version {version})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
