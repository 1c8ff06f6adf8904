#!/usr/bin/env python3
"""Trunk post-build hook: rewrites the JSON files the page fetches (lessons in scenarios/,
language packs in i18n/) without whitespace, so each fetch is smaller. The files in static/
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
    for folder in ("scenarios", "i18n"):
        path = os.path.join(staging, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith(".json"):
                continue
            file = os.path.join(path, name)
            with open(file, encoding="utf-8") as f:
                value = json.load(f)
            with open(file, "w", encoding="utf-8") as f:
                json.dump(value, f, ensure_ascii=False, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
