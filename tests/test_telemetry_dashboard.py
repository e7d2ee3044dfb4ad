"""`orkestra telemetry dashboard`: the local page in headless Chromium, and the Grafana JSON.

The page is rendered from the synthetic 10,000-event store (known counts) through the real CLI,
loaded from disk by Debian's Chromium with the network off, and every chart is checked in the
DOM Chromium built (non-empty SVG, the expected labels). The screenshot it takes replaces
docs/img/telemetry-dashboard.png when ``ORKESTRA_UPDATE_SCREENSHOTS=1`` is set.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from clirun import run_cli
from loki_server import Parser
from telemetry_synth import write_store

from orkestra.telemetry.grafana import DEFAULTS, expand, panel_specs

JS = Path(__file__).resolve().parent / "js"
DOCS_SHOT = Path(__file__).resolve().parent.parent / "docs" / "img" / "telemetry-dashboard.png"
CHARTS = {
    "events-over-time": ["builtin", "bash", "mcp", "skill", "agent"],
    "failure-rate": ["bash:pytest", "mcp:github", "76% of 500", "50% of 500"],
    "mcp-share": ["github", "maguyva", "50% (500)"],
    "skills": ["systematic-debugging"],
    "subagents": ["code-reviewer"],
    "failure-loops": ["s0 · bash:pytest"],
    "slowest-tools": ["Agent", "bash:pytest"],
}
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def run_chromium(*args: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


class Charts(HTMLParser):
    """Per ``<svg data-chart>``: how many marks (rect/path) and which texts it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.charts: dict[str, dict] = {}
        self.current: str | None = None
        self.external: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("src", "href"):
            if attrs.get(key) and not attrs[key].startswith("#"):
                self.external.append(attrs[key])
        if tag == "svg" and "data-chart" in attrs:
            self.current = attrs["data-chart"]
            self.charts[self.current] = {"marks": 0, "texts": [], "empty": attrs.get("data-empty") == "true"}
        elif self.current and tag in ("rect", "path"):
            self.charts[self.current]["marks"] += 1

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current = None

    def handle_data(self, data):
        if self.current and data.strip():
            self.charts[self.current]["texts"].append(data.strip())


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("dash")
    (root / ".git").mkdir()
    write_store(root / ".orkestra" / "telemetry")
    return root


def test_the_page_is_self_contained_with_every_chart_and_a_table_view(project):
    result = run_cli("telemetry", "dashboard", cwd=project)
    assert result.returncode == 0, result.stderr
    path = Path(result.stdout.strip())
    assert path == project / ".orkestra" / "telemetry" / "dashboard.html"
    html = path.read_text()
    charts = Charts()
    charts.feed(html)
    assert charts.external == []  # no script, stylesheet, image or font from anywhere
    assert "<script" not in html
    assert set(charts.charts) == set(CHARTS)
    for name, labels in CHARTS.items():
        chart = charts.charts[name]
        assert chart["marks"] > 0, name
        assert not chart["empty"], name
        assert all(any(label in text for text in chart["texts"]) for label in labels), (
            name,
            chart["texts"][:20],
        )
    assert "<td>bash:pytest</td><td>bash</td><td>500</td><td>380</td>" in html  # the failure table
    assert html.count("<tr>") > 500  # the events table view


def test_since_and_session_filter_the_page(project, tmp_path):
    out = tmp_path / "s3.html"
    result = run_cli(
        "telemetry",
        "dashboard",
        "--session",
        "s3",
        "--since",
        "2026-03-01T00:00:00",
        "--output",
        str(out),
        cwd=project,
    )
    assert result.returncode == 0, result.stderr
    html = out.read_text()
    # its malformed line has no session
    assert "<b>999</b>events" in html
    assert "<b>1</b>sessions" in html
    assert "s3 · bash:pytest" in html
    assert "s0 · bash:pytest" not in html
    later = run_cli("telemetry", "dashboard", "--since", "2030-01-01", "--output", str(out), cwd=project)
    assert later.returncode == 0
    assert 'data-empty="true"' in out.read_text()
    bad = run_cli("telemetry", "dashboard", "--since", "yesterday-ish", cwd=project)
    assert bad.returncode == 2
    assert "--since" in bad.stderr


@pytest.mark.skipif(chromium() is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_headless_chromium_renders_every_chart_and_takes_the_docs_screenshot(project, tmp_path):
    page = project / ".orkestra" / "telemetry" / "dashboard.html"
    if not page.exists():
        assert run_cli("telemetry", "dashboard", cwd=project).returncode == 0
    dom = run_chromium("--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    charts = Charts()
    charts.feed(dom.stdout)
    assert set(charts.charts) == set(CHARTS)
    for name, labels in CHARTS.items():
        assert charts.charts[name]["marks"] > 0, name
        assert all(any(label in t for t in charts.charts[name]["texts"]) for label in labels), name
    shot = tmp_path / "shot.png"
    taken = run_chromium("--window-size=1400,1700", f"--screenshot={shot}", page.as_uri())
    assert taken.returncode == 0, taken.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", taken.stderr[-2000:]
    assert shot.stat().st_size > 50_000  # a blank page is a few KB
    if os.environ.get("ORKESTRA_UPDATE_SCREENSHOTS"):  # refresh the docs' picture on request only
        DOCS_SHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, DOCS_SHOT)


def test_grafana_dashboard_json_has_every_panel_query_and_variable(project, tmp_path):
    pytest.importorskip("grafana_foundation_sdk", reason="the 'grafana' extra is not installed")
    out = tmp_path / "dash.json"
    result = run_cli("telemetry", "dashboard", "--grafana", "--output", str(out), cwd=project)
    assert result.returncode == 0, result.stderr
    board = json.loads(out.read_text())
    assert board["uid"] == "orkestra-agent-hooks"
    variables = {v["name"]: v for v in board["templating"]["list"]}
    assert set(variables) == {"datasource", "agent_tool", "session", "repository"}
    assert variables["agent_tool"]["query"] == 'label_values({service_name="claude-code-hooks"}, agent_tool)'
    titles = [p["title"] for p in board["panels"]]
    for wanted in (
        "Activity feed",
        "Tool calls",
        "Failures",
        "Prompts",
        "Sessions' agents",
        "Built-in tools",
        "MCP servers",
        "Shell command families",
        "Skills",
        "Subagents dispatched",
    ):
        assert wanted in titles
    exprs = [t["expr"] for p in board["panels"] for t in p["targets"]]
    assert exprs == [spec.expr for spec in panel_specs()]
    for panel in board["panels"]:
        assert panel["datasource"] == {"type": "loki", "uid": "${datasource}"}
    for expr in exprs:
        assert re.search(r'\{service_name="claude-code-hooks", agent_tool=~"\$agent_tool"', expr)
        assert '| session_id=~"$session" | repository=~"$repository"' in expr
        Parser(expand(expr)).query()  # parses as LogQL (the subset the test server evaluates)
        assert "$" not in expand(expr, DEFAULTS)
    assert run_cli("telemetry", "dashboard", "--grafana", "--session", "s1", cwd=project).returncode == 2


@pytest.mark.skipif(
    shutil.which("node") is None or not (JS / "node_modules" / "@grafana" / "lezer-logql").is_dir(),
    reason="node or tests/js/node_modules missing (.ci/run: npm install --prefix tests/js)",
)
def test_every_dashboard_query_parses_with_grafanas_logql_grammar():
    """Grafana's own LogQL grammar (@grafana/lezer-logql) accepts every query, as Grafana sends it."""
    exprs = [spec.expr for spec in panel_specs()]
    samples = [expand(e) for e in exprs] + [
        expand(e, {"session": "s1|s2", "agent_tool": "(claude-code|codex-cli)"}) for e in exprs
    ]
    broken = ['{service_name="x"} | json |', 'sum by (tool_type (count_over_time({a="b"} [1m]))']
    result = subprocess.run(
        ["node", str(JS / "logql_check.cjs")],
        input=json.dumps(samples + broken),
        capture_output=True,
        text=True,
        cwd=JS,
        timeout=60,
        check=True,
    )
    errors = json.loads(result.stdout)
    assert None not in errors[len(samples) :]  # the grammar does reject broken LogQL
    assert [(q, at) for q, at in zip(samples, errors[: len(samples)], strict=True) if at is not None] == []


def _axis_ticks(svg_html: str) -> list[str]:
    """The labels written under the time axis of the events-over-time chart (class "value" texts
    that are times, not the count scale)."""
    chart = svg_html.split('data-chart="events-over-time"')[1].split("</svg>")[0]
    return [t for t in re.findall(r'class="value">([^<]*)</text>', chart) if ":" in t]


@pytest.mark.parametrize("seconds", [50, 180, 3 * 3600, 3 * 86400])
def test_the_time_axis_writes_distinct_labels_that_do_not_overlap(seconds):
    from datetime import UTC, datetime, timedelta

    from orkestra.telemetry.events import Event
    from orkestra.telemetry.page import _stacked, timeline

    start = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    events = [
        Event(
            (start + timedelta(seconds=seconds * i / 199)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
            {"event": "PreToolUse", "tool_type": "bash"},
            {},
        )
        for i in range(200)
    ]
    labels, counts = timeline(events)
    assert len(set(labels)) == len(labels)  # no two slices share a start label
    ticks = _axis_ticks(_stacked("events-over-time", "t", labels, counts))
    assert len(ticks) >= 5, ticks
    assert len(set(ticks)) == len(ticks), ticks
    # at 6.5 px a character, each tick ends before the next begins (the chart is 1,320 px of slices)
    assert sum(len(t) * 6.5 + 12 for t in ticks) <= 1360


def test_long_failure_loop_names_fit_with_the_full_name_as_tooltip():
    from orkestra.telemetry.page import LABEL_CHARS, _hbars

    name = "0f8fad5b-d9cb-469f-a165-70867728950e · bash:pytest"
    svg = _hbars("failure-loops", "Failure loops", [(name, 3, "1 loop, 3 failures")])
    label = re.search(r'class="label"><title>([^<]*)</title>([^<]*)</text>', svg)
    assert label
    assert label.group(1) == name.replace("'", "&#x27;")
    shown = label.group(2)
    assert len(shown) <= LABEL_CHARS
    assert "…" in shown
    assert shown.endswith("bash:pytest")
    assert shown.startswith("0f8f")


def test_every_label_is_text_never_markup():
    """The page's templates autoescape: a skill name, a title and a store warning holding markup show
    as text, and the charts and tables still hold them."""
    from orkestra.telemetry.events import Event
    from orkestra.telemetry.page import render_page
    from orkestra.telemetry.report import build_report

    hostile = '<img src=x onerror="alert(1)">'
    labels = {"event": "PreToolUse", "tool_type": "skill", "tool_name": "Skill", "skill": hostile}
    events = [
        Event(f"2026-03-01T10:00:0{i}.000Z", labels, {"session_id": "s", "tool_use_id": f"t{i}"})
        for i in range(3)
    ]
    html = render_page(build_report(events, [f"bad line {hostile}"]), events, title=f"T {hostile}")
    assert "<img" not in html
    charts = Charts()
    charts.feed(html)
    assert charts.external == []
    assert hostile in charts.charts["skills"]["texts"]  # the bar's label, read back as the text it was
    assert (
        html.count("&lt;img src=x onerror=") >= 4
    )  # title, heading, the skills chart and table, the warning
