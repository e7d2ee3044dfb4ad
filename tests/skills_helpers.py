"""A small real workspace for the skills trust-review tests (written file by file, no mocks)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import yaml
from conftest import REPO, git

CORPUS = REPO / "tests" / "fixtures" / "skills_corpus"

SKILL_BODY = """\
# {title}

## When to use
Use when {topic} comes up in a task.

## Steps
1. Read the relevant files.
2. Apply the {topic} guidance.
3. Run the tests.

## Success criteria
- The tests pass and the change is explained with file references.

## Failure recovery
- If a step fails, stop and report the error output.
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def skill_source(
    root: Path,
    name: str,
    *,
    tier: str = "K2",
    folder: str = "domains",
    description: str | None = None,
    tags: tuple[str, ...] = (),
    **metadata: object,
) -> Path:
    """Write ``registries/skills/<folder>/<name>/SKILL.md`` in our source format."""
    meta = {
        "identifier": name,
        "name": name,
        "description": description
        or f"Guidance for {name.replace('-', ' ')} work. Use when the task "
        f"involves {name.replace('-', ' ')}.",
        "type": "workflow",
        "layer": tier,
        "semantic_folder": folder,
        "source": "core",
        "last_updated": "2026-11-01",
        **metadata,
    }
    front = yaml.safe_dump(
        {"metadata": meta, "frontmatter": {"tags": list(tags), "allowed_tools": ["Read"]}}, sort_keys=False
    )
    body = SKILL_BODY.format(title=name.replace("-", " ").title(), topic=name.replace("-", " "))
    return write(root / "registries" / "skills" / folder / name / "SKILL.md", f"---\n{front}---\n{body}")


def make_workspace(
    root: Path, *, scopes: dict | None = None, agents: dict | None = None, vendor_roots: list | None = None
) -> Path:
    """A minimal valid workspace: primitives, values, tools, scopes, agents; skills are added by the test."""
    root.mkdir(parents=True, exist_ok=True)
    write(root / "orkestra.yaml", "version: 1\nproject: trust-review-test\n")
    reg = root / "registries"
    for kind, name in (("identities", "architect"), ("mindsets", "analytical"), ("styles", "concise")):
        write(
            reg / f"{kind}.yaml",
            yaml.safe_dump(
                {kind: {name: {"description": f"The {name}.", "prompt": f"You think like a {name}."}}}
            ),
        )
    write(
        reg / "values.yaml",
        yaml.safe_dump(
            {
                "values": [
                    {
                        "id": "simplicity-first",
                        "title": "Simplicity first",
                        "text": "Prefer the simplest design that works.",
                    }
                ]
            }
        ),
    )
    write(
        reg / "tools.yaml",
        yaml.safe_dump({"builtin": ["Read", "Write", "Edit", "Bash", "Grep", "Glob"], "mcp_servers": {}}),
    )
    write(
        reg / "scopes.yaml",
        yaml.safe_dump(
            {
                "scopes": scopes
                or {
                    "database": {"description": "Databases and migrations", "primary_skills": []},
                }
            }
        ),
    )
    write(reg / "metadata.yaml", yaml.safe_dump({"project": "t", "vendor_roots": vendor_roots or []}))
    for name, extra in (agents or {"db-engineer": {"scopes": ["database"]}}).items():
        agent = {
            "name": name,
            "category": "engineering",
            "description": f"The {name} agent. Use when needed.",
            "identity": ["architect"],
            "mindset": "analytical",
            "style": "concise",
            **extra,
        }
        write(reg / "agents" / f"{name}.yaml", yaml.safe_dump(agent, sort_keys=False))
    return root


def commit_all(root: Path) -> None:
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "chore: workspace")
