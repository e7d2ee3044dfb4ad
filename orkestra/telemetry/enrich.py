"""Low-cardinality labels derived from a hook payload; pure, stdlib-only.

``tool_type`` is one of builtin, mcp, skill, agent, bash; ``bash_cli`` is the command
family of a shell line (``cd app && FOO=1 sudo -E python -m pytest -q | tee`` → pytest).
"""

from __future__ import annotations

import re
import shlex

TYPE_CHECKING = False  # typing costs ~3 ms of the hook's start-up; annotations are strings
if TYPE_CHECKING:
    from typing import Any

AGENT_TOOLS = frozenset({"Agent", "Task"})  # Claude Code renamed Task to Agent
SKILL_TOOLS = frozenset({"Skill"})
BASH_TOOLS = frozenset({"Bash", "shell", "local_shell", "exec_command"})  # Claude Code, Codex

SEPARATORS = frozenset(";&|()")
# Words that only set up the shell for the next segment: `cd x && git status` → git.
SETUP_COMMANDS = frozenset({"cd", "pushd", "popd", "export", "source", ".", "set", "unset", "true", "alias"})
# Wrappers whose real command follows, with the options that take a value.
WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}),
    "env": frozenset({"-u", "-C", "-S", "--unset", "--chdir"}),
    "time": frozenset({"-f", "-o"}),
    "nohup": frozenset(),
    "nice": frozenset({"-n"}),
    "ionice": frozenset({"-c", "-n"}),
    "exec": frozenset({"-a"}),
    "command": frozenset(),
    "builtin": frozenset(),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "xargs": frozenset({"-I", "-n", "-P", "-d", "-L", "-s", "-E"}),
}
# Runners whose family is the program they run: `uv run pytest` → pytest, `npx tsc` → tsc.
RUNNERS: dict[tuple[str, ...], frozenset[str]] = {
    ("uv", "run"): frozenset({"--with", "--python", "-p", "--package", "--extra", "--group", "--directory"}),
    ("uvx",): frozenset({"--from", "--with", "--python", "-p"}),
    ("uv", "tool", "run"): frozenset({"--from", "--with", "--python", "-p"}),
    ("poetry", "run"): frozenset(),
    ("pipenv", "run"): frozenset(),
    ("pdm", "run"): frozenset(),
    ("hatch", "run"): frozenset(),
    ("npx",): frozenset({"-p", "--package"}),
    ("bunx",): frozenset(),
    ("pnpm", "exec"): frozenset(),
    ("pnpm", "dlx"): frozenset(),
    ("yarn", "dlx"): frozenset(),
    ("bundle", "exec"): frozenset(),
}
SHELLS = frozenset({"bash", "sh", "zsh", "dash"})
PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
MAX_LABEL = 40


def tool_type(tool_name: str) -> str:
    """builtin | mcp | skill | agent | bash for a Claude Code or Codex tool name."""
    if tool_name.startswith("mcp__"):
        return "mcp"
    if tool_name in BASH_TOOLS:
        return "bash"
    if tool_name in SKILL_TOOLS:
        return "skill"
    if tool_name in AGENT_TOOLS:
        return "agent"
    return "builtin"


def mcp_server(tool_name: str) -> str | None:
    """``mcp__maguyva__find_symbol`` → ``maguyva``."""
    parts = tool_name.split("__")
    return parts[1] if len(parts) >= 3 and parts[0] == "mcp" and parts[1] else None


def _words(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: fall back to a plain split
        return line.split()


def _segments(line: str) -> list[list[str]]:
    """Words of each command of a shell line, split at ; && || | & and newlines."""
    segments: list[list[str]] = [[]]
    for word in _words(line.replace("\n", " ; ")):
        if word and set(word) <= SEPARATORS:
            if segments[-1]:
                segments.append([])
        else:
            segments[-1].append(word)
    return [s for s in segments if s]


def _skip_options(words: list[str], i: int, valued: frozenset[str]) -> int:
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in valued else 1
    return i


def _base(word: str) -> str:
    name = word.rsplit("/", 1)[-1]
    return "python" if PYTHON.match(name) else name


def _family(words: list[str], depth: int = 0) -> str | None:
    """The command family of one pipeline segment, unwrapping sudo/env/runners/-m/-c."""
    i = 0
    while i < len(words):
        while i < len(words) and ASSIGNMENT.match(words[i]):
            i += 1
        if i >= len(words):
            return None
        name = _base(words[i])
        if name in WRAPPERS:
            i = _skip_options(words, i + 1, WRAPPERS[name])
            if name == "timeout" and i < len(words):
                i += 1  # the duration
            continue
        for runner, valued in RUNNERS.items():
            if tuple(_base(w) for w in words[i : i + len(runner)]) == runner:
                i = _skip_options(words, i + len(runner), valued)
                break
        else:
            break
    if i >= len(words):
        return None
    name = _base(words[i])
    rest = words[i + 1 :]
    if name == "python" and len(rest) >= 2 and rest[0] == "-m":
        return rest[1].split(".")[0]
    if name in SHELLS and len(rest) >= 2 and rest[0] == "-c" and depth < 2:
        return bash_cli(rest[1], depth + 1)
    return name


def bash_cli(command: str, depth: int = 0) -> str | None:
    """The family of the first real command of a shell line, or None for an empty line."""
    families = [(_family(segment, depth), segment) for segment in _segments(command or "")]
    families = [(f, s) for f, s in families if f]
    for family, _ in families:
        if family not in SETUP_COMMANDS:
            return family[:MAX_LABEL]
    return families[0][0][:MAX_LABEL] if families else None


def skill_name(tool_input: Any) -> str | None:
    """The skill a ``Skill`` tool call activates."""
    if not isinstance(tool_input, dict):
        return None
    name = tool_input.get("skill") or tool_input.get("command") or tool_input.get("name")
    return str(name).lstrip("/")[: MAX_LABEL * 2] if name else None


def outcome(event: str, payload: dict[str, Any]) -> str:
    """success | failure | interrupted | n/a for one hook event."""
    if event == "PostToolUseFailure":
        return "interrupted" if payload.get("is_interrupt") else "failure"
    if event == "PostToolUse":
        response = payload.get("tool_response")
        if isinstance(response, dict) and response.get("interrupted") is True:
            return "interrupted"
        return "success"
    if event in ("PermissionDenied", "StopFailure"):
        return "failure"
    if event == "agent-turn-complete":
        return "success"
    return "n/a"
