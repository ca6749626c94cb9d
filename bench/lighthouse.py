"""Lighthouse's scores for the home screen and a game screen, on a phone and on a desktop.

Starts ``zar serve`` on a free port over a throwaway database, creates a Yams game against
the computer and throws once (so the game screen has dice on it), then runs Lighthouse 12
(npm, installed into ``bench/.lighthouse/`` on first use) in Debian's Chromium on ``/``
and ``/?game=ID``, with Lighthouse's default emulation (a mid-range phone, simulated slow
4G and a 4x slower CPU) and with ``--preset=desktop``, ``--runs`` times each. Prints the
median of each figure over the runs against the anchors, then, for whoever fixes the
page, every accessibility and best-practices audit below 1 and the performance audits
with the largest estimated savings, with the elements and files Lighthouse names.

    .venv/bin/python bench/lighthouse.py [--runs 5] [--top 8] [--keep FOLDER]

(The home screen lists the unfinished game the bench created. Lighthouse's own Chromium
flags are the defaults of its launcher: no first-run, no background networking.)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serving import serve

ANCHOR_PERFORMANCE = 95
ANCHOR_ACCESSIBILITY = 100
ANCHOR_BEST_PRACTICES = 100
ANCHOR_CLS = 0.05

CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu"
HERE = Path(__file__).resolve().parent
LIGHTHOUSE_FOLDER = HERE / ".lighthouse"
LIGHTHOUSE = LIGHTHOUSE_FOLDER / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices")
FORM_FACTORS = ("mobile", "desktop")
# The metrics are in the table; the audits of the performance category that are not
# metrics are the opportunities and diagnostics.
METRICS = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "speed-index": "SI",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
}
NOT_OPPORTUNITIES = {*METRICS, "max-potential-fid", "interactive"}
SHOWN_ITEMS = 10


@dataclass(frozen=True)
class Page:
    """One measured configuration: a screen in one form factor."""

    screen: str
    path: str
    form_factor: str

    def __str__(self) -> str:
        return f"{self.screen}, {self.form_factor}"


def install_lighthouse() -> str | None:
    """The installed Lighthouse's version, installing it first if need be; None if npm fails."""
    if not LIGHTHOUSE.exists():
        npm = shutil.which("npm")
        if npm is None:
            return None
        LIGHTHOUSE_FOLDER.mkdir(exist_ok=True)
        print(f"installing lighthouse@12 into {LIGHTHOUSE_FOLDER} (npm)", flush=True)
        done = subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(LIGHTHOUSE_FOLDER),
                "--no-audit",
                "--no-fund",
                "lighthouse@12",
            ],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or not LIGHTHOUSE.exists():
            print(done.stderr[-2000:])
            return None
    return subprocess.run(
        [str(LIGHTHOUSE), "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()


def post(url: str, body: Any) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def game_with_dice(url: str) -> str:
    """A Yams game of Ali against the computer, thrown once: its id."""
    game = post(f"{url}/api/games", {"game": "yams", "players": ["Ali"], "computer": True})
    thrown = post(f"{url}/api/games/{game['id']}/actions", {"version": 0, "type": "throw"})
    assert len(thrown["dice"]) == 5, thrown["dice"]
    return str(game["id"])


def lighthouse(url: str, form_factor: str, output: Path) -> dict[str, Any] | str:
    """Lighthouse's report (JSON) of one run, or why it has none."""
    command = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={output}",
        "--quiet",
        f"--chrome-flags={CHROME_FLAGS}",
        f"--only-categories={','.join(CATEGORIES)}",
    ]
    if form_factor == "desktop":
        command.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    if done.returncode != 0 or not output.exists():
        return f"lighthouse exited with {done.returncode}: {done.stderr.strip()[-1500:]}"
    report: dict[str, Any] = json.loads(output.read_text())
    if error := report.get("runtimeError"):
        return f"{error.get('code')}: {error.get('message')}"
    return report


def score(report: dict[str, Any], category: str) -> float | None:
    value = report["categories"][category]["score"]
    return None if value is None else round(100 * value)


def figures(report: dict[str, Any]) -> dict[str, float | None]:
    """The three scores (0-100) and the metrics (milliseconds; CLS unitless)."""
    found: dict[str, float | None] = {c: score(report, c) for c in CATEGORIES}
    for audit_id, name in METRICS.items():
        found[name] = report["audits"][audit_id].get("numericValue")
    return found


def median(reports: list[dict[str, Any]], name: str) -> float | None:
    values = [v for r in reports if (v := figures(r)[name]) is not None]
    return statistics.median(values) if values else None


def median_run(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The run whose performance score is the median one (the lower of the middle two)."""
    return sorted(reports, key=lambda r: score(r, "performance") or 0)[(len(reports) - 1) // 2]


# What Lighthouse says an audit found: its details, as lines of text.


def short(url: str, base: str) -> str:
    return url.removeprefix(base) or "/"


def value_text(value: Any, value_type: str | None, base: str) -> str:
    if isinstance(value, dict):
        kind = value.get("type")
        if kind == "node":
            label = value.get("nodeLabel", "")
            return f"{label!r} {value.get('selector', '')} {value.get('snippet', '')}".strip()
        if kind == "source-location":
            where = short(value.get("url", ""), base)
            return f"{where}:{value.get('line', 0) + 1}:{value.get('column', 0) + 1}"
        if kind == "url":
            return short(str(value.get("value", "")), base)
        if kind == "link":
            return f"{value.get('text', '')} ({value.get('url', '')})"
        if kind in ("code", "text", "numeric"):
            return value_text(value.get("value"), value_type if kind == "numeric" else None, base)
        return json.dumps(value)[:200]
    if value_type == "url" and isinstance(value, str):
        return short(value, base)
    if isinstance(value, int | float) and not isinstance(value, bool):
        if value_type == "bytes":
            return f"{value / 1024:.1f} KiB"
        if value_type in ("ms", "timespanMs"):
            return f"{value:.0f} ms"
        return f"{value:.3g}" if isinstance(value, float) else str(value)
    return " ".join(str(value).split())


def table_lines(details: dict[str, Any], base: str, indent: str) -> list[str]:
    headings = [h for h in details.get("headings", []) if h.get("key")]
    items = details.get("items", [])
    lines = []
    for item in items[:SHOWN_ITEMS]:
        cells = [
            f"{h.get('label') or h['key']}: {value_text(item[h['key']], h.get('valueType'), base)}"
            for h in headings
            if item.get(h["key"]) not in (None, "")
        ]
        lines.append(f"{indent}- " + "; ".join(cells))
        for h in headings:
            node = item.get(h["key"])
            if isinstance(node, dict) and node.get("explanation"):
                lines.append(f"{indent}  " + " ".join(node["explanation"].split())[:400])
        sub_heading = next(
            (h["subItemsHeading"] for h in headings if h.get("subItemsHeading")), None
        )
        for sub in (item.get("subItems") or {}).get("items", [])[:5]:
            if sub_heading and sub.get(sub_heading["key"]) is not None:
                text = value_text(sub[sub_heading["key"]], sub_heading.get("valueType"), base)
                lines.append(f"{indent}    related: {text}")
    if len(items) > SHOWN_ITEMS:
        lines.append(f"{indent}- ... and {len(items) - SHOWN_ITEMS} more")
    return lines


def chain_lines(chains: dict[str, Any], base: str, indent: str, depth: int = 0) -> list[str]:
    lines = []
    for link in chains.values():
        url = link.get("url") or link.get("request", {}).get("url", "")
        took = link.get("navStartToEndTime")
        size = link.get("transferSize")
        extra = ", ".join(
            text
            for text in (
                f"{took:.0f} ms" if took is not None else "",
                f"{size / 1024:.1f} KiB" if size is not None else "",
            )
            if text
        )
        lines.append(f"{indent}{'  ' * depth}- {short(url, base)} ({extra})")
        lines.extend(chain_lines(link.get("children") or {}, base, indent, depth + 1))
    return lines


def details_lines(details: dict[str, Any] | None, base: str, indent: str = "    ") -> list[str]:
    if not details:
        return []
    kind = details.get("type")
    if kind in ("table", "opportunity"):
        return table_lines(details, base, indent)
    if kind == "list":
        return [line for d in details.get("items", []) for line in details_lines(d, base, indent)]
    if kind == "list-section":
        lines = details_lines(details.get("value"), base, indent)
        return [f"{indent}{details['title']}:", *lines] if lines and details.get("title") else lines
    if kind in ("network-tree", "criticalrequestchain"):
        return chain_lines(details.get("chains") or {}, base, indent)[:20]
    if kind == "checklist":
        return [
            f"{indent}- not met: {check.get('label', name)}"
            for name, check in details.get("items", {}).items()
            if not check.get("value")
        ]
    return []  # screenshots, filmstrips, debug data


def audit_lines(audit: dict[str, Any], base: str) -> list[str]:
    shown = f" ({audit['displayValue']})" if audit.get("displayValue") else ""
    lines = [f"  {audit['id']}: {audit['title']}{shown}"]
    for note in (audit.get("explanation"), audit.get("errorMessage"), *audit.get("warnings", [])):
        if note:
            lines.append("    " + " ".join(str(note).split())[:400])
    return lines + details_lines(audit.get("details"), base)


def below_one(audit: dict[str, Any]) -> bool:
    return audit.get("scoreDisplayMode") == "error" or (
        audit.get("score") is not None and audit["score"] < 1
    )


def savings(audit: dict[str, Any]) -> float:
    """The audit's largest estimated saving in milliseconds, over every metric it names."""
    estimated = [float(v) for v in (audit.get("metricSavings") or {}).values() if v]
    overall = float((audit.get("details") or {}).get("overallSavingsMs") or 0)
    return max([*estimated, overall])


def print_audits(page: Page, reports: list[dict[str, Any]], base: str, top: int) -> None:
    print(f"\n== {page}: {page.path}")
    for category in ("accessibility", "best-practices"):
        failing: dict[str, tuple[int, dict[str, Any]]] = {}
        for report in reports:
            for ref in report["categories"][category]["auditRefs"]:
                audit = report["audits"][ref["id"]]
                if below_one(audit):
                    count, first = failing.get(ref["id"], (0, audit))
                    failing[ref["id"]] = (count + 1, first)
        print(f"{category}: {len(failing) or 'no'} audit(s) below 1")
        for count, audit in failing.values():
            lines = audit_lines(audit, base)
            lines[0] += f" [score {audit.get('score')}, in {count} of {len(reports)} runs]"
            print("\n".join(lines))
    report = median_run(reports)
    refs = report["categories"]["performance"]["auditRefs"]
    opportunities = sorted(
        (
            report["audits"][ref["id"]]
            for ref in refs
            if ref["id"] not in NOT_OPPORTUNITIES and below_one(report["audits"][ref["id"]])
        ),
        key=savings,
        reverse=True,
    )
    print(
        f"performance: {len(opportunities)} audit(s) below 1 in the median run "
        f"(score {score(report, 'performance')}), the first {min(top, len(opportunities))} "
        "by estimated savings"
    )
    for audit in opportunities[:top]:
        lines = audit_lines(audit, base)
        lines[0] += f" [score {audit.get('score')}, saves up to {savings(audit):.0f} ms]"
        print("\n".join(lines))


def number(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    if unit == "ms":
        return f"{value:,.0f} ms"
    if unit == "cls":
        return f"{value:.3f}"
    return f"{value:g}"


def server_state(server: subprocess.Popen[bytes], base: str) -> str:
    """Whether the server still answers, said after a run failed."""
    if (code := server.poll()) is not None:
        return f"the server has exited (status {code})"
    try:
        urllib.request.urlopen(f"{base}/api/setup", timeout=5).close()
        return "the server still answers"
    except OSError as error:
        return f"the server does not answer: {error}"


def measure(
    server: subprocess.Popen[bytes], base: str, game: str, runs: int, folder: Path
) -> dict[Page, list[dict[str, Any]]]:
    """Each page's reports, one run of every page then the next: the machine's noise falls
    on all of them alike."""
    pages = [
        Page(screen, path, form_factor)
        for screen, path in (("home", "/"), ("game", f"/?game={game}"))
        for form_factor in FORM_FACTORS
    ]
    reports: dict[Page, list[dict[str, Any]]] = {page: [] for page in pages}
    for run in range(1, runs + 1):
        for page in pages:
            output = folder / f"{page.screen}-{page.form_factor}-{run}.json"
            started = time.monotonic()
            found = lighthouse(base + page.path, page.form_factor, output)
            took = time.monotonic() - started
            if isinstance(found, str):
                state = server_state(server, base)
                print(
                    f"run {run}, {page}: FAILED after {took:.0f} s ({state}): {found}", flush=True
                )
                continue
            reports[page].append(found)
            performance = score(found, "performance")
            print(f"run {run}, {page}: performance {performance} ({took:.0f} s)", flush=True)
    return reports


def print_figures(reports: dict[Page, list[dict[str, Any]]], heading: str) -> None:
    print(f"\n{heading}")
    units = {"CLS": "cls", "LCP": "ms", "TBT": "ms", "FCP": "ms", "SI": "ms"}
    columns = ("performance", "accessibility", "best-practices", *units)
    print(f"{'page':16} {'runs':>4} " + " ".join(f"{c:>14}" for c in columns))
    for page, rs in reports.items():
        cells = [number(median(rs, c), units.get(c, "")) for c in columns]
        print(f"{page!s:16} {len(rs):>4} " + " ".join(f"{c:>14}" for c in cells))
    for page, rs in reports.items():
        print(f"performance score of each run, {page}: {[score(r, 'performance') for r in rs]}")

    def anchor(what: str, value: float | None, ok: bool) -> None:
        shown = number(value, "cls" if what.startswith("CLS") else "")
        print(f"anchor: {what} ({shown})  ->  {'PASS' if value is not None and ok else 'FAIL'}")

    for page, rs in reports.items():
        performance, accessibility = median(rs, "performance"), median(rs, "accessibility")
        practices, cls = median(rs, "best-practices"), median(rs, "CLS")
        anchor(
            f"performance at least {ANCHOR_PERFORMANCE}, {page}",
            performance,
            performance is not None and performance >= ANCHOR_PERFORMANCE,
        )
        anchor(
            f"accessibility {ANCHOR_ACCESSIBILITY}, {page}",
            accessibility,
            accessibility == ANCHOR_ACCESSIBILITY,
        )
        anchor(
            f"best practices {ANCHOR_BEST_PRACTICES}, {page}",
            practices,
            practices == ANCHOR_BEST_PRACTICES,
        )
        anchor(f"CLS at most {ANCHOR_CLS}, {page}", cls, cls is not None and cls <= ANCHOR_CLS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="Lighthouse runs per page")
    parser.add_argument("--top", type=int, default=8, help="performance audits listed")
    parser.add_argument("--keep", type=Path, help="a folder to keep the JSON reports in")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"lighthouse: skipped, {CHROMIUM} is missing (make browser installs it)")
        return
    version = install_lighthouse()
    if version is None:
        print("lighthouse: skipped, npm could not install lighthouse@12")
        return
    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        reports_folder = args.keep or Path(folder)
        reports_folder.mkdir(parents=True, exist_ok=True)
        server, base = serve(Path(folder), {"ZAR_GAMES_PER_MINUTE": "off"})
        try:
            reports = measure(server, base, game_with_dice(base), args.runs, reports_folder)
        finally:
            server.terminate()
            server.wait(timeout=10)
    load_end = os.getloadavg()[0]

    every = [r for rs in reports.values() for r in rs]
    browser = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()
    index = statistics.median(r["environment"]["benchmarkIndex"] for r in every) if every else 0
    print_figures(
        reports,
        f"Lighthouse {version}, {browser}, the median of {args.runs} runs a page; "
        f"Lighthouse's benchmark index of this machine {index:.0f}; "
        f"load average {load_start:.2f} at the start, {load_end:.2f} at the end",
    )
    print(
        "\nWhat Lighthouse found: the accessibility and best-practices audits below 1 (in any"
        " run), and the performance audits below 1 with the largest savings (in the median run)"
    )
    for page, rs in reports.items():
        if rs:
            print_audits(page, rs, base, args.top)
        else:
            print(f"\n== {page}: no run succeeded")


if __name__ == "__main__":
    main()
