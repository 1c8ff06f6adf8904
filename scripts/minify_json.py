#!/usr/bin/env python3
"""Trunk post-build hook: rewrites the JSON files the pages fetch (lessons in scenarios/,
language packs in i18n/, the lab's quiz.json) without whitespace, so each fetch is smaller. The files in static/
stay indented for the people who edit them; the content is the same JSON value.
"""
import json
import os
import sys


def main() -> int:
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        print("minify_json.py: TRUNK_STAGING_DIR is not set", file=sys.stderr)
        return 1
    files = [os.path.join(staging, "quiz.json")]
    for folder in ("scenarios", "i18n"):
        path = os.path.join(staging, folder)
        if os.path.isdir(path):
            files += [os.path.join(path, n) for n in sorted(os.listdir(path)) if n.endswith(".json")]
    # Each trunk run stages only its own page's files: the lab's has no quiz.json.
    for file in filter(os.path.isfile, files):
        with open(file, encoding="utf-8") as f:
            value = json.load(f)
        with open(file, "w", encoding="utf-8") as f:
            json.dump(value, f, ensure_ascii=False, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
