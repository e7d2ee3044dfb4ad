"""An issue's boilerplate — its repository's template prompts — is not read as a description of
the code; a GitHub link to a file is read as that file."""

from __future__ import annotations

from maguyva.retrieve.boilerplate import linked_paths, template_lines, without_prompts
from maguyva.retrieve.query import parse
from tests.maguyva_project import open_indexed

MARKDOWN_TEMPLATE = """---
name: Bug report
about: Create a report to help us improve
---

**Describe the bug**
A clear and concise description of what the bug is.

**Environment info**
- OS: [e.g. Unix/Linux/Mac/Win/other with version]
- Python version: [e.g. 3.7.1]
"""

YAML_TEMPLATE = """name: Bug report
description: Report a bug in the project
body:
  - type: textarea
    attributes:
      label: Bug description
      description: A clear and concise description of what the bug is.
      placeholder: Please paste the command line output here
"""

ISSUE = """Rendering drops the default of a positional-only argument
**Describe the bug**
A clear and concise description of what the bug is.
The default value for the positional only argument vanished in the signature renderer.

**Environment info**
- OS: [e.g. Unix/Linux/Mac/Win/other with version] Linux
- Python version: [e.g. 3.7.1] 3.8
Please paste the command line output here
"""


def test_template_prompts_are_read_from_markdown_and_yaml_forms():
    prompts = template_lines([MARKDOWN_TEMPLATE, YAML_TEMPLATE])
    assert "a clear and concise description of what the bug is." in prompts
    assert "os: [e.g. unix/linux/mac/win/other with version]" in prompts
    assert "please paste the command line output here" in prompts
    assert "bug description" in prompts  # a YAML form's label
    assert not any(len(p.split()) < 2 for p in prompts)  # one-word lines ("body:") are never prompts


def test_prompts_leave_the_issue_and_what_the_reporter_wrote_after_them_stays():
    cleaned = without_prompts(ISSUE, template_lines([MARKDOWN_TEMPLATE, YAML_TEMPLATE]))
    assert "concise" not in cleaned
    assert "paste" not in cleaned
    assert "e.g." not in cleaned
    assert "signature renderer" in cleaned  # the reporter's own sentence
    # the answers after the prompts
    assert "linux" in cleaned.lower()
    assert "3.8" in cleaned
    assert cleaned.splitlines()[0] == ISSUE.splitlines()[0]  # the title is untouched
    assert without_prompts(ISSUE, frozenset()) == ISSUE


def test_a_github_link_to_a_file_is_read_as_that_path():
    text = (
        "Broken output, see ![shot](https://user-images.githubusercontent.com/3/4.png)."
        "\nThe bug is in https://github.com/acme/widgets/blob/0a1b2c/src/widgets/render.py#L40 I think."
    )
    assert linked_paths(text) == ["src/widgets/render.py"]
    parsed = parse(text + "\nmore words so that this is a task text with several lines\nand another")
    assert "src/widgets/render.py" in parsed.paths
    assert linked_paths("see https://example.org/a/b.py") == []  # only links into a GitHub repository


def test_the_repository_template_is_read_from_the_index_and_stripped_before_ranking(tmp_path):
    files = {
        ".github/ISSUE_TEMPLATE/bug_report.md": MARKDOWN_TEMPLATE,
        "pkg/__init__.py": "",
        "pkg/signature.py": '"""Render a signature."""\n\n\ndef render_signature(args):\n'
        '    """Positional only arguments keep their default value."""\n    return args\n',
        # a hub whose words are the template's: "clear", "concise", "description", "version"
        "pkg/app.py": '"""Application."""\n\n\ndef describe(version):\n'
        '    """A clear and concise description of the version of the environment."""\n'
        '    return f"clear concise description {version} environment os python"\n',
    }
    api = open_indexed(tmp_path / "repo", files)
    try:
        assert "a clear and concise description of what the bug is." in api._issue_prompts()
        answer = api.intelligent_search(ISSUE)
        found = [r["path"] for r in answer["results"]]
        assert found[0] == "pkg/signature.py"
        assert "pkg/app.py" not in found  # it only matched the template's words
    finally:
        api.close()


def test_a_hostile_long_line_costs_linear_time():
    prompts = template_lines([MARKDOWN_TEMPLATE])
    line = "a clear and concise description " + "word " * 200_000
    cleaned = without_prompts(line, prompts)  # would be quadratic in the words without the cap
    assert cleaned.startswith("a clear")
    assert len(cleaned) > 1_000_000
