"""Spec conformance of a SKILL.md (FORMATS.md §2): names, description, keys, directory, length.

Two shapes are understood: the open agentskills.io frontmatter (``name``, ``description``,
…; vendor and candidate skills) and our source format (``metadata:`` + ``frontmatter:``).
Conformance problems are at most ``medium``: they make a skill load badly, not unsafe.
"""

from __future__ import annotations

import re

from orkestra.trust.findings import Finding, Severity, excerpt
from orkestra.workspace.source import SourceError, parse_yaml

SPEC_KEYS = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools"})
CLAUDE_CODE_KEYS = frozenset(
    {
        "when_to_use",
        "argument-hint",
        "arguments",
        "disable-model-invocation",
        "user-invocable",
        "disallowed-tools",
        "model",
        "effort",
        "context",
        "agent",
        "background",
        "hooks",
        "paths",
        "shell",
    }
)
SOURCE_KEYS = frozenset({"metadata", "frontmatter"})
NAME_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")
TRIGGER_RE = re.compile(
    r"\b(?:use\s+(?:this\s+)?(?:skill\s+)?(?:when|whenever|for|to|if|before|after)|"
    r"when\s+(?:the\s+user|you\s+need|asked)|triggers?\s+(?:on|when)|invoke\s+when)\b",
    re.I,
)
MAX_NAME, MAX_DESCRIPTION, MAX_COMPATIBILITY = 64, 1024, 500
DESCRIPTION_RANGE = (50, 400)
MAX_BODY_LINES, MAX_BODY_TOKENS = 500, 5000
SECTIONS = ("When to use", "Success criteria", "Failure recovery")


def split_skill(text: str) -> tuple[dict | None, str, int, str]:
    """(frontmatter mapping or None, body, first body line, error message or "")."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None, text, 1, "missing YAML frontmatter"
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            try:  # the workspace's capped loader: alias bombs, deep nesting and duplicate keys are refused
                data = parse_yaml("\n".join(lines[1:index]), "SKILL.md", line_offset=1).data
            except SourceError as exc:
                problem = exc.diagnostic
                return (
                    None,
                    "\n".join(lines[index + 1 :]),
                    index + 2,
                    f"frontmatter does not parse (line {problem.line}): {problem.message}",
                )
            if not isinstance(data, dict):
                return None, "\n".join(lines[index + 1 :]), index + 2, "frontmatter is not a mapping"
            return data, "\n".join(lines[index + 1 :]), index + 2, ""
    return None, text, 1, "frontmatter is not closed by '---'"


def _words(value: object) -> list[str]:
    """A list of names as text: ``tags: 5``, a mapping or nested lists give none (never a crash)."""
    if not isinstance(value, list):
        return []
    return [str(v) for v in value if isinstance(v, (str, int, float)) and not isinstance(v, bool)]


def spec_view(data: dict) -> dict:
    """The spec-level fields of either shape: name, description, compatibility, tags, tools."""
    meta = data.get("metadata")
    if isinstance(meta, dict) and "identifier" in meta:
        front = data.get("frontmatter") if isinstance(data.get("frontmatter"), dict) else {}
        return {
            "name": meta.get("name"),
            "description": meta.get("description"),
            "compatibility": meta.get("compatibility"),
            "tags": _words(front.get("tags")),
            "allowed_tools": _words(front.get("allowed_tools")),
            "last_updated": meta.get("last_updated"),
            "source_format": True,
        }
    tools = data.get("allowed-tools") or []
    tools = [t for t in re.split(r"[\s,]+", tools) if t] if isinstance(tools, str) else _words(tools)
    tags = meta.get("tags", []) if isinstance(meta, dict) else []
    tags = [t.strip() for t in tags.split(",") if t.strip()] if isinstance(tags, str) else _words(tags)
    return {
        "name": data.get("name"),
        "description": data.get("description"),
        "compatibility": data.get("compatibility"),
        "tags": tags,
        "allowed_tools": tools,
        "last_updated": meta.get("last_updated") if isinstance(meta, dict) else None,
        "source_format": False,
    }


# Frontmatter keys with which Claude Code runs commands while a skill (or agent) is active.
_RUNS_COMMANDS = {"hooks", "statusLine", "apiKeyHelper", "mcpServers", "mcp_servers"}


def check_conformance(text: str, file: str, dir_name: str) -> list[Finding]:
    """Conformance findings of one SKILL.md whose folder is named ``dir_name``."""
    lines = text.split("\n")

    def at(key: str) -> int:
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*:")
        return next((i + 1 for i, line in enumerate(lines) if pattern.match(line)), 1)

    def add(rule: str, severity: Severity, key: str, message: str) -> None:
        line = at(key) if key else 1
        findings.append(
            Finding(f"spec.{rule}", severity, file, line, excerpt(lines[line - 1] if lines else ""), message)
        )

    findings: list[Finding] = []
    data, body, body_line, error = split_skill(text)
    if data is None:
        add("frontmatter", "medium", "", error)
        return findings
    extra = (
        (data.get("frontmatter") or {}).get("extra") if isinstance(data.get("frontmatter"), dict) else None
    )
    for where, keys in (("", data), ("frontmatter.extra.", extra if isinstance(extra, dict) else {})):
        for key in sorted(k for k in map(str, keys) if k in _RUNS_COMMANDS and keys.get(k)):
            findings.append(
                Finding(
                    "config.agent-settings",
                    "high",
                    file,
                    at(key),
                    excerpt(lines[at(key) - 1] if lines else ""),
                    f"{where}{key} in a skill's frontmatter runs commands whenever the skill is active; "
                    "a reviewed skill must not carry it",
                )
            )
    view = spec_view(data)
    allowed = SOURCE_KEYS if view["source_format"] else SPEC_KEYS
    for key in sorted(set(map(str, data)) - allowed):
        if key in CLAUDE_CODE_KEYS:
            add("keys", "low", key, f"{key!r} is Claude Code only; other clients reject it")
        else:
            add(
                "keys",
                "medium",
                key,
                f"{key!r} is not an allowed frontmatter key ({', '.join(sorted(allowed))})",
            )
    _check_name(view.get("name"), dir_name, add)
    _check_description(view.get("description"), add)
    compatibility = view.get("compatibility")
    if compatibility is not None and len(str(compatibility)) > MAX_COMPATIBILITY:
        add(
            "compatibility",
            "medium",
            "compatibility",
            f"compatibility is over {MAX_COMPATIBILITY} characters",
        )
    body_lines = body.count("\n") + 1
    if body_lines > MAX_BODY_LINES:
        add("body-length", "low", "", f"body has {body_lines} lines; keep SKILL.md under {MAX_BODY_LINES}")
    elif len(body) / 4 > MAX_BODY_TOKENS:
        add(
            "body-length",
            "low",
            "",
            f"body is about {len(body) // 4} tokens; keep it under {MAX_BODY_TOKENS}",
        )
    if view["source_format"]:
        headings = {h.strip().lower() for h in re.findall(r"^#{2,3}\s+(.+)$", body, re.M)}
        for section in SECTIONS:
            if section.lower() not in headings:
                findings.append(
                    Finding("spec.section", "low", file, body_line, "", f"section '## {section}' is missing")
                )
    return findings


def _check_name(name: object, dir_name: str, add) -> None:
    if not isinstance(name, str) or not name.strip():
        add("name", "medium", "name", "name is missing")
        return
    if len(name) > MAX_NAME:
        add("name", "medium", "name", f"name is over {MAX_NAME} characters")
    if not NAME_RE.match(name):
        add("name", "medium", "name", f"name {name!r} must be lowercase letters, digits and single hyphens")
    if name != dir_name:
        add("name", "medium", "name", f"name {name!r} must equal its directory name {dir_name!r}")
    if re.search(r"anthropic|claude", name):
        add("name", "low", "name", "names containing 'anthropic' or 'claude' are reserved on some platforms")


def _check_description(description: object, add) -> None:
    if not isinstance(description, str) or not description.strip():
        add("description", "medium", "description", "description is missing")
        return
    low, high = DESCRIPTION_RANGE
    if len(description) > MAX_DESCRIPTION:
        add("description", "medium", "description", f"description is over {MAX_DESCRIPTION} characters")
    elif not low <= len(description) <= high:
        add(
            "description",
            "low",
            "description",
            f"description has {len(description)} characters; aim for {low}–{high}",
        )
    if not TRIGGER_RE.search(description):
        add("description", "low", "description", "description has no trigger phrase ('Use when …')")
    if "<" in description or ">" in description:
        add(
            "description",
            "low",
            "description",
            "description contains '<' or '>', which skill packagers reject",
        )
