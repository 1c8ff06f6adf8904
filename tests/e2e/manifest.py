#!/usr/bin/env python3
"""Checks unzipped course packages as a strict LMS validator would: the manifest validates
against the schema files it names (which the package must hold), names every file of the
package but the schemas, carries its LOM metadata (title, language, description, typical
learning time), and in SCORM 2004 lets the learner flow between SCOs (Continue/Previous).

Usage: tests/e2e/manifest.py <unzipped package dir> [--lang xx --title TEXT] ...
(one directory per package; --lang and --title say what that package was made with).
"""
import os
import re
import sys

from lxml import etree

CP12 = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
CP2004 = "http://www.imsglobal.org/xsd/imscp_v1p1"


class ImsXml(etree.Resolver):
    """ADL's SCORM 1.2 ims_xml.xsd binds the default namespace to the xml namespace, which
    libxml2 refuses (Namespaces in XML forbids it; Xerces lets it pass): validation reads it
    with that one declaration removed, the rest as shipped."""

    def resolve(self, url, public_id, context):
        if url.endswith("ims_xml.xsd"):
            text = open(url, encoding="utf-8").read()
            text = text.replace('xmlns="http://www.w3.org/XML/1998/namespace"', "", 1)
            return self.resolve_string(text, context)
        return None


def check(directory, lang, title):
    problems = []
    say = lambda text: problems.append(f"{os.path.basename(directory)}: {text}")
    manifest = etree.parse(os.path.join(directory, "imsmanifest.xml"))
    root = manifest.getroot()
    xsi = "{http://www.w3.org/2001/XMLSchema-instance}schemaLocation"
    pairs = root.get(xsi, "").split()
    pairs = list(zip(pairs[0::2], pairs[1::2]))
    for _, location in pairs:
        if not os.path.isfile(os.path.join(directory, location)):
            say(f"the manifest names {location}, which is not in the package")
    # One schema that imports every namespace the manifest names, from the package's files.
    driver = ('<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">'
              + "".join(f'<xsd:import namespace="{ns}" schemaLocation="{loc}"/>' for ns, loc in pairs)
              + "</xsd:schema>")
    parser = etree.XMLParser()
    parser.resolvers.add(ImsXml())
    driver_doc = etree.fromstring(driver.encode(), parser, base_url=os.path.join(directory, "driver.xsd"))
    schema = etree.XMLSchema(driver_doc)
    if not schema.validate(manifest):
        for error in list(schema.error_log)[:5]:
            say(f"invalid at line {error.line}: {error.message}")
    version = "1.2" if root.tag == f"{{{CP12}}}manifest" else "2004"
    ns = {"cp": CP12 if version == "1.2" else CP2004}
    listed = {f.get("href") for f in root.iterfind(".//cp:file", ns)}
    schemas = {loc for _, loc in pairs}
    present = set()
    for base, _, files in os.walk(directory):
        for name in files:
            present.add(os.path.relpath(os.path.join(base, name), directory).replace(os.sep, "/"))
    for path in sorted(present - listed - {"imsmanifest.xml"}):
        if not re.search(r"\.(xsd|dtd)$", path) and path != "metadata.xml":
            say(f"{path} is in the package but not in the manifest")
    for path in sorted(listed - present):
        say(f"the manifest lists {path}, which is not in the package")
    if not schemas <= present:
        say("schema files missing")
    # What a module runs on, and nothing else: no page of the site no SCO opens.
    for page in ("index.html", "lab.html", "explore.html", "course.html", "sw.js"):
        if page in present:
            say(f"{page} is shipped, though no SCO opens it")
    text = etree.tostring(root, encoding="unicode")
    # LOM in a file of its own (SCORM 1.2's adlcp:location) counts as the manifest's.
    for location in re.findall(r"<adlcp:location>([^<]+)</adlcp:location>", text):
        present_listed = os.path.isfile(os.path.join(directory, location))
        if not present_listed:
            say(f"the metadata file {location} is not in the package")
        else:
            text += open(os.path.join(directory, location), encoding="utf-8").read()
    for part in ("description", "language", "title"):
        if not re.search(rf"<(\w+:)?{part}\b", text):
            say(f"no LOM {part}")
    if not re.search(r"<(\w+:)?(datetime|duration)>PT\d+(H\d+)?M<", text):
        say("no typical learning time")
    if version == "2004" and not re.search(r'<imsss:controlMode [^>]*flow="true"', text):
        say("SCORM 2004 without flow: Continue and Previous would not move between SCOs")
    org_title = root.find(".//cp:organization/cp:title", ns).text
    if title and org_title != title:
        say(f"the course is titled {org_title!r}, not {title!r}")
    if lang:
        if f">{lang}<" not in text:
            say(f"the LOM language is not {lang}")
        quiz = open(os.path.join(directory, "quiz.html"), encoding="utf-8").read()
        if f';lang={lang}"' not in quiz or f'<html lang="{lang}"' not in quiz:
            say(f"quiz.html does not open in {lang}")
    size = sum(os.path.getsize(os.path.join(directory, p)) for p in present)
    return problems, f"{os.path.basename(directory)}: SCORM {version}, valid, {len(present)} files, {size:,} B unzipped"


def main(args):
    problems, lines = [], []
    while args:
        directory, args = args[0], args[1:]
        lang = title = None
        while args[:1] and args[0].startswith("--"):
            if args[0] == "--lang":
                lang, args = args[1], args[2:]
            elif args[0] == "--title":
                title, args = args[1], args[2:]
            else:
                sys.exit(f"manifest: unknown option {args[0]}")
        found, line = check(directory, lang, title)
        problems += found
        lines.append(line)
    for line in lines:
        print(f"manifest: {line}")
    for problem in problems:
        print(f"manifest: {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
