"""``orkestra-why-hook``: decision guidance when an agent reads or edits a covered file.

A Claude Code ``PreToolUse`` hook (rendered into ``.claude/settings.json`` by ``orkestra sync`` when
``memory.hook`` is on). For Read/Edit/Write/MultiEdit/NotebookEdit it looks the file up in the
table sync wrote (``orkestra.why.lookup``) and, when active decisions or current ground truths cover
it, prints ``{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": …}}`` —
the documented field for adding context — with their ids and do/avoid lines. It never decides a
permission, never exits non-zero and prints nothing when nothing applies or anything goes wrong, so
it cannot block a tool call. Stdlib only (json, os, sys) so it starts in about the time of Python.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence

from orkestra.why.lookup import LOOKUP_NAME, covering, read_lookup

FILE_TOOLS = {"Read": "file_path", "Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path",
              "NotebookEdit": "notebook_path"}
MAX_RECORDS = 6
MAX_CONTEXT = 2_000
USAGE = "usage: orkestra-why-hook [--lookup PATH]  (a Claude Code hook payload on stdin)"


def _project(payload: dict, env: Mapping[str, str]) -> str | None:
    for start in (env.get("CLAUDE_PROJECT_DIR"), payload.get("cwd")):
        if isinstance(start, str) and start and os.path.isdir(start):
            folder = os.path.realpath(start)
            while True:  # the nearest folder holding orkestra.yaml, else the start itself
                if os.path.isfile(os.path.join(folder, "orkestra.yaml")):
                    return folder
                parent = os.path.dirname(folder)
                if parent == folder:
                    return os.path.realpath(start)
                folder = parent
    return None


def _relative(path: str, project: str) -> str | None:
    full = os.path.realpath(path if os.path.isabs(path) else os.path.join(project, path))
    if full != project and not full.startswith(project + os.sep):
        return None
    rel = os.path.relpath(full, project).replace(os.sep, "/")
    return None if rel == ".git" or rel.startswith(".git/") else rel


def guidance(payload: dict, env: Mapping[str, str], lookup_rel: str = ".claude/" + LOOKUP_NAME) -> dict | None:
    """The hook's JSON answer for one payload, or None to stay silent."""
    tool = payload.get("tool_name")
    key = FILE_TOOLS.get(tool) if isinstance(tool, str) else None
    tool_input = payload.get("tool_input")
    if key is None or not isinstance(tool_input, dict) or not isinstance(tool_input.get(key), str):
        return None
    project = _project(payload, env)
    if project is None:
        return None
    rel = _relative(tool_input[key], project)
    lookup = read_lookup(os.path.join(project, lookup_rel)) if rel else None  # type: ignore[arg-type]
    ids = covering(lookup, rel) if lookup else []
    records = lookup["records"] if lookup else {}
    ids = [i for i in ids if i in records]
    if not ids:
        return None
    header = (f"Orkestra memory: {rel} is covered by {len(ids)} record(s); follow their guidance "
              f"(`orkestra why {rel}` for the history).")
    lines = [header]
    for record_id in ids[:MAX_RECORDS]:
        record = records[record_id]
        lines.append(f"- {record_id} ({record['kind']}, {record['status']}): {record['title']}")
        lines += [f"  do: {item}" for item in record.get("do", [])]
        lines += [f"  avoid: {item}" for item in record.get("avoid", [])]
    if len(ids) > MAX_RECORDS:
        lines.append(f"- and {len(ids) - MAX_RECORDS} more: {', '.join(ids[MAX_RECORDS:])}")
    text = "\n".join(lines)
    if len(text) > MAX_CONTEXT:
        text = text[:MAX_CONTEXT - 1] + "…"
    event = payload.get("hook_event_name") if payload.get("hook_event_name") in ("PreToolUse", "PostToolUse") \
        else "PreToolUse"
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def main(argv: Sequence[str] | None = None) -> int:
    """Console-script entry point: always exits 0; prints the answer only when something applies."""
    args = list(sys.argv[1:] if argv is None else argv)
    lookup_rel = ".claude/" + LOOKUP_NAME
    if args[:1] == ["--lookup"] and len(args) > 1:
        lookup_rel = args[1]
    elif args:
        sys.stderr.write(USAGE + "\n")
        return 0
    try:
        payload = json.loads(sys.stdin.read(1 << 20) or "{}")
        answer = guidance(payload, os.environ, lookup_rel) if isinstance(payload, dict) else None
    except Exception as exc:  # noqa: BLE001 - guidance must never break the agent's tool call
        sys.stderr.write(f"orkestra-why-hook: no guidance: {type(exc).__name__}: {exc}\n")
        return 0
    if answer is not None:
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
