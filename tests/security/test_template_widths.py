"""Issue 31, class 9: a template cannot allocate gigabytes through a filter, a str method or a format width.

Each of these built its result in one Python call before the render's time budget could fire; under a
2 GiB address-space limit (a subprocess, so an unfixed sandbox fails the test instead of the machine)
they must be refused with a located error instead, and ordinary widths must still render.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from ork_workspace import cli, workspace

HOSTILE = {
    "center-filter": "{{ 'x'|center(10**9) }}",
    "indent-filter": "{{ 'a\\nb'|indent(10**9, true) }}",
    "indent-string": "{{ ('a\\n' * 400000)|indent('y' * 100) }}",
    "format-filter": "{{ '%999999999d'|format(1) }}",
    "format-filter-star": "{{ '%*s'|format(10**9, 'x') }}",
    "str-format-width": "{{ '{:>999999999}'.format(1) }}",
    "str-format-nested": "{{ '{:>{w}}'.format(1, w=10**9) }}",
    "str-format-precision": "{{ '{:.999999999f}'.format(1.0) }}",
    "format-map": "{{ '{x:^999999999}'.format_map({'x': 1}) }}",
    "percent-operator": "{{ '%.999999999f' % 1.0 }}",
    "percent-mapping": "{{ '%(a)999999999s' % {'a': 1} }}",
    "str-ljust": "{{ 'x'.ljust(10**9) }}",
    "str-center": "{{ 'x'.center(10**9) }}",
    "str-zfill": "{{ '1'.zfill(10**9) }}",
    "str-expandtabs": "{{ ('\\t' * 1000).expandtabs(10**7) }}",
    "str-replace": "{{ ('x' * 10**6).replace('', 'y' * 1000) }}",
    "replace-filter": "{{ ('x' * 10**6)|replace('x', 'y' * 20) }}",
    "batch-fill": "{{ [1]|batch(10**9, 0)|list|length }}",
    "slice": "{{ [1]|slice(10**8)|list|length }}",
    "tojson-indent": "{{ {'a': [[1]]}|tojson(10**8) }}",
    # amplification: a short format string or list standing for many copies of one big string
    "format-repeated-field": "{{ ('{0}' * 10**5).format('x' * 10**6) }}",
    "percent-repeated-key": "{{ ('%(a)s' * 10**5) % {'a': 'x' * 10**6} }}",
    "percent-many-args": "{{ ('%s' * 10**5) % (('x' * 10**6,) * 10**5) }}",
    "join-separator": "{{ ('x' * 10**6)|list|join('y' * 10**6) }}",
    "list-of-big-strings": "{{ (['x' * 10**6] * 10**6)|join }}",
    "wordwrap-wrapstring": "{{ ('x' * 10**6)|wordwrap(1, true, 'y' * 10**4) }}",
    "str-join": "{{ ('y' * 10**6).join(('x' * 10**6)|list) }}",
    "str-translate": "{{ ('a' * 10**6).translate({97: 'x' * 10**4}) }}",
    "lipsum-paragraphs": "{{ lipsum(10**6) }}",
    "lipsum-words": "{{ lipsum(1, false, 10**8, 10**9) }}",
}

RUN = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
from pathlib import Path
from orkestra.errors import OrkestraError
from orkestra.render.environment import template_loader
try:
    out = template_loader(Path(sys.argv[1]))("agent.md.j2", {})
    print(json.dumps({"ok": True, "size": len(out)}))
except OrkestraError as exc:
    print(json.dumps({"ok": False, "error": str(exc)}))
"""


def _render(tmp_path: Path, body: str) -> dict:
    folder = tmp_path / "templates"
    folder.mkdir(exist_ok=True)
    (folder / "agent.md.j2").write_text("line one\nline two\n" + body + "\n")
    result = subprocess.run(
        [sys.executable, "-c", RUN, str(folder)], capture_output=True, text=True, timeout=120
    )
    # a MemoryError is a failure
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout, result.stderr[-2000:]
    return json.loads(result.stdout)


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_width_or_count_over_the_cap_is_refused_with_a_located_error(tmp_path, case):
    answer = _render(tmp_path, HOSTILE[case])
    assert not answer["ok"], answer
    assert "agent.md.j2:3: template refused by the sandbox: " in answer["error"], answer["error"]
    assert "limit" in answer["error"]


def test_ordinary_widths_still_render(tmp_path):
    body = (
        "{{ '%s'|format('ok') }}|{{ 'x'|center(9) }}|{{ '{:>5}'.format(1) }}|{{ 'x'.ljust(3) }}|"
        "{{ '%5.2f' % 3.14159 }}|{{ [1, 2, 3]|batch(2)|list }}|{{ 'a-b'|replace('-', '+') }}|"
        "{{ 'a\\nb'|indent(2) }}|{{ {'a': 1}|tojson }}|{{ '{x:>3}'.format_map({'x': 7}) }}"
    )
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "agent.md.j2").write_text(body)
    from orkestra.render.environment import template_loader

    assert template_loader(folder)("agent.md.j2", {}) == (
        'ok|    x    |    1|x  | 3.14|[[1, 2], [3]]|a+b|a\n  b|{"a": 1}|  7'
    )


def test_sync_with_a_padding_bomb_in_a_workspace_template_exits_1_naming_the_line(tmp_path):
    root = workspace(tmp_path)
    (root / "templates").mkdir()
    (root / "templates/agent.md.j2").write_text("---\nname: x\n---\n{{ 'x'|center(2 ** 40) }}\n")
    result = cli(root, "sync")
    assert result.returncode == 1, result.stderr[-2000:]
    assert "templates/agent.md.j2:4: template refused by the sandbox: center width" in result.stderr
    assert "Traceback" not in result.stderr
    assert "MemoryError" not in result.stderr
