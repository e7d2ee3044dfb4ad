"""Item 5 of issue 14: workspace templates render in Jinja's immutable sandbox; escapes are located errors."""

from __future__ import annotations

import signal

import pytest
from ork_workspace import cli, workspace

from orkestra.errors import OrkestraError
from orkestra.render.environment import template_loader

ESCAPES = [
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ cycler.__init__.__globals__.os.system('touch PWNED') }}",
    "{{ self._TemplateReference__context.cycler.__init__.__globals__.os.popen('touch PWNED').read() }}",
    "{{ lipsum.__globals__['os'].system('touch PWNED') }}",
    "{% set x = [] %}{{ x.append(1) }}",  # immutable: no mutation of lists ...
    "{% set d = {} %}{{ d.update({'a': 1}) }}",  # ... or dicts
    "{{ name.__len__() }}",
    "{{ range(10 ** 9) | list | length }}",  # the sandbox caps range()
    "{{ 'x' * 10 ** 10 }}",  # and our caps on string/list repetition
    "{{ 2 ** 100000000 }}",  # and on powers ...
    "{{ ((((9 ** 9) ** 9) ** 9) ** 9) ** 9 }}",  # ... however they are chained
]


@pytest.mark.parametrize("body", ESCAPES)
def test_a_template_reaching_for_forbidden_attributes_fails_with_a_located_error(tmp_path, body):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "agent.md.j2").write_text("line one\nline two\n" + body + "\n")
    render = template_loader(folder)
    with pytest.raises(OrkestraError) as info:
        render("agent.md.j2", {"name": "n"})
    message = str(info.value)
    assert "agent.md.j2:3:" in message, message
    assert not (tmp_path / "PWNED").exists()


def test_sync_with_a_hostile_workspace_template_fails_cleanly_and_runs_nothing(tmp_path):
    root = workspace(tmp_path)
    (root / "templates").mkdir()
    (root / "templates/agent.md.j2").write_text(
        "---\n{{ cycler.__init__.__globals__.os.system('touch ' ~ 'PWNED') }}\n---\n"
    )
    result = cli(root, "sync")
    assert result.returncode == 1
    assert "templates/agent.md.j2:2:" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (root / "PWNED").exists()
    assert not (root / ".claude/agents").exists()


def test_the_packaged_templates_still_render_in_the_sandbox(tmp_path):
    root = workspace(tmp_path)
    assert cli(root, "sync").returncode == 0
    assert (root / ".claude/agents/orchestrator.md").read_text().startswith("---\n")


def test_a_template_that_never_finishes_is_stopped_with_a_located_error(tmp_path, monkeypatch):
    from orkestra.render import environment

    monkeypatch.setattr(environment, "TEMPLATE_SECONDS", 0.5)
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "agent.md.j2").write_text(
        "start\n{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}\n"
    )
    pending = signal.setitimer(signal.ITIMER_REAL, 0)  # pytest-timeout's alarm; the budget yields to it
    try:
        with pytest.raises(OrkestraError) as info:
            template_loader(folder)("agent.md.j2", {})
    finally:
        if pending[0] > 0:
            signal.setitimer(signal.ITIMER_REAL, *pending)
    assert "agent.md.j2:2:" in str(info.value)
    assert "longer than" in str(info.value)
