"""Prints the median of several Lighthouse JSON reports (scripts/bench): the performance and
accessibility scores, the paint and blocking figures, and any audit that failed."""

import json
import statistics
import sys

runs = [json.load(open(path)) for path in sys.argv[1:]]


def median(pick):
    return statistics.median(pick(run) for run in runs)


print(f"  performance   {median(lambda r: r['categories']['performance']['score'] * 100):.0f}  (target >= 95)")
print(f"  accessibility {median(lambda r: r['categories']['accessibility']['score'] * 100):.0f}  (target 100)")
for audit, name in [
    ("largest-contentful-paint", "LCP"),
    ("first-contentful-paint", "FCP"),
    ("total-blocking-time", "TBT"),
    ("cumulative-layout-shift", "CLS"),
]:
    value = median(lambda r: r["audits"][audit]["numericValue"])
    text = f"{value:.3f}" if name == "CLS" else f"{value / 1000:.2f} s"
    target = {"LCP": "  (target <= 2.5 s)", "TBT": "  (target <= 0.20 s)", "CLS": "  (target <= 0.010)"}
    print(f"  {name:<13} {text}" + target.get(name, ""))
failed = sorted(
    {
        audit["title"]
        for run in runs
        for audit in run["audits"].values()
        if audit.get("scoreDisplayMode") == "binary" and audit.get("score") == 0
    }
)
for title in failed:
    print(f"  failed audit: {title}")
