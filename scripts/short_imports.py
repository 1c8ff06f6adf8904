#!/usr/bin/env python3
"""Trunk post-build hook: gives each wasm bundle's imports short names, in the wasm and in
its JavaScript glue alike, and updates the pages' integrity hashes to match.

wasm-bindgen names every import it generates after the JavaScript it calls plus 16 hex
digits of a hash (`__wbg_parentNode_fe15bcc26df42856`). Each name is written twice, in
the wasm's import section and as a key of the glue's import object, and the hash digits
do not compress: over a hundred imports cost the first page about 4 KB of gzip. This hook
renames each such import `a`, `b`, ... `aB`, in import order, in both files. Nothing else
changes: the wasm's other sections are copied byte for byte, and in the glue only those
exact names are replaced (each is unique, hash included). A page's `integrity`
attributes (trunk's sha384 for the files it preloads) are computed again for the files
that changed. Runs from Trunk.toml after every `trunk build` and `trunk serve`; a bundle
whose names are already short, or whose glue does not hold every import name, is left as
it is, with a message.
"""
import base64
import hashlib
import os
import re
import sys

PREFIX = "__wbg_"


def main() -> int:
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        print("short_imports.py: TRUNK_STAGING_DIR is not set (run it from trunk)", file=sys.stderr)
        return 1
    names = os.listdir(staging)
    changed = []
    for wasm_name in sorted(n for n in names if n.endswith(".wasm")):
        wasm_path = os.path.join(staging, wasm_name)
        with open(wasm_path, "rb") as f:
            wasm = f.read()
        try:
            sections = split_sections(wasm)
        except ValueError as e:
            print(f"short_imports.py: {wasm_name}: {e}; left as it is", file=sys.stderr)
            continue
        imports = import_fields(sections)
        long_names = [field for field in imports if field.startswith(PREFIX)]
        if not long_names:
            continue
        glue_name = find_glue(staging, names, long_names)
        if glue_name is None:
            print(f"short_imports.py: no glue holds every import of {wasm_name}; left as it is",
                  file=sys.stderr)
            continue
        short = {old: short_name(i) for i, old in enumerate(long_names)}
        glue_path = os.path.join(staging, glue_name)
        with open(glue_path, encoding="utf-8") as f:
            glue = f.read()
        # Each name must be a key of the import object and nothing else (`name:` once):
        # a key's new name cannot clash with the glue's variables, a variable's could.
        if any(len(re.findall(re.escape(n) + r"\b", glue)) != 1 or f"{n}:" not in glue
               for n in long_names):
            print(f"short_imports.py: {glue_name} uses an import name other than as a key;"
                  f" {wasm_name} left as it is", file=sys.stderr)
            continue
        pattern = re.compile("|".join(re.escape(n) for n in sorted(long_names, key=len, reverse=True)))
        glue = pattern.sub(lambda m: short[m.group(0)], glue)
        wasm = join_sections(rename_imports(sections, short), wasm[:8])
        with open(wasm_path, "wb") as f:
            f.write(wasm)
        with open(glue_path, "w", encoding="utf-8") as f:
            f.write(glue)
        changed += [wasm_name, glue_name]
    if changed:
        for page in (n for n in names if n.endswith(".html")):
            update_integrity(os.path.join(staging, page), staging, changed)
    return 0


def short_name(i: int) -> str:
    """`a` ... `Z`, then `aa` ...: letters only, so never a number or a keyword's start."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = letters[i % 52]
    i //= 52
    while i:
        out += letters[i % 52]
        i //= 52
    return out


def find_glue(staging, names, long_names):
    for name in sorted(n for n in names if n.endswith(".js")):
        with open(os.path.join(staging, name), encoding="utf-8") as f:
            text = f.read()
        if all(n in text for n in long_names):
            return name
    return None


def update_integrity(page_path, staging, changed):
    with open(page_path, encoding="utf-8") as f:
        html = f.read()

    def fix(tag):
        text = tag.group(0)
        href = re.search(r"href=\"?\./([^\"\s>]+)", text)
        if not href or href.group(1) not in changed or "integrity=" not in text:
            return text
        with open(os.path.join(staging, href.group(1)), "rb") as f:
            digest = base64.b64encode(hashlib.sha384(f.read()).digest()).decode()
        return re.sub(r"integrity=(\"?)sha384-[A-Za-z0-9+/=]+", rf"integrity=\g<1>sha384-{digest}", text)

    new = re.sub(r"<link\b[^>]*>", fix, html)
    if new != html:
        with open(page_path, "w", encoding="utf-8") as f:
            f.write(new)


# The wasm binary format: a header, then sections (id byte, LEB128 size, contents); the
# import section (id 2) is a vector of (module name, field name, description).

def leb(data, at):
    value = shift = 0
    while True:
        if at >= len(data):
            raise ValueError("truncated LEB128 number")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def to_leb(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def split_sections(wasm):
    if wasm[:4] != b"\0asm":
        raise ValueError("not a wasm module")
    sections, at = [], 8
    while at < len(wasm):
        section_id = wasm[at]
        size, body_at = leb(wasm, at + 1)
        if body_at + size > len(wasm):
            raise ValueError("a section runs past the end")
        sections.append((section_id, wasm[body_at:body_at + size]))
        at = body_at + size
    return sections


def join_sections(sections, header):
    out = bytearray(header)
    for section_id, body in sections:
        out.append(section_id)
        out += to_leb(len(body))
        out += body
    return bytes(out)


def read_name(body, at):
    size, at = leb(body, at)
    return body[at:at + size].decode("utf-8"), at + size


def import_entries(body):
    """Each import as (module, field, its description's raw bytes)."""
    count, at = leb(body, 0)
    entries = []
    for _ in range(count):
        module, at = read_name(body, at)
        field, at = read_name(body, at)
        start = at
        kind = body[at]
        at += 1
        if kind == 0:  # function: a type index
            _, at = leb(body, at)
        elif kind == 1:  # table: reference type and limits
            at += 1
            flags, at = leb(body, at)
            _, at = leb(body, at)
            if flags & 1:
                _, at = leb(body, at)
        elif kind == 2:  # memory: limits
            flags, at = leb(body, at)
            _, at = leb(body, at)
            if flags & 1:
                _, at = leb(body, at)
        elif kind == 3:  # global: value type and mutability
            at += 2
        else:
            raise ValueError(f"unknown import kind {kind}")
        entries.append((module, field, body[start:at]))
    if at != len(body):
        raise ValueError("the import section has bytes after its entries")
    return entries


def import_fields(sections):
    for section_id, body in sections:
        if section_id == 2:
            return [field for _, field, _ in import_entries(body)]
    return []


def rename_imports(sections, short):
    out = []
    for section_id, body in sections:
        if section_id == 2:
            entries = import_entries(body)
            new = bytearray(to_leb(len(entries)))
            for module, field, description in entries:
                for name in (module, short.get(field, field)):
                    encoded = name.encode("utf-8")
                    new += to_leb(len(encoded)) + encoded
                new += description
            body = bytes(new)
        out.append((section_id, body))
    return out


if __name__ == "__main__":
    sys.exit(main())
