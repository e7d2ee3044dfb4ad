"""``orkestra-why-hook``: decision guidance when an agent reads or edits a covered file.

A Claude Code ``PreToolUse`` hook (rendered into ``.claude/settings.json`` by ``orkestra sync`` when
``memory.hook`` is on). For Read/Edit/Write/MultiEdit/NotebookEdit it looks the file up in the
table sync wrote (``orkestra.why.lookup``) and, when active decisions or current ground truths cover
it, prints ``{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": …}}`` —
the documented field for adding context — with their ids and do/avoid lines. It never decides a
permission, never exits non-zero and prints nothing when nothing applies or anything goes wrong, so
it cannot block a tool call. Records already shown in the session (``session_id``) are named in one
line instead of repeated (``<state>/memory-hook/<session>.seen``). Stdlib only (json, os, sys) so it
starts in about the time of Python.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence

from orkestra.fs.roots import CONFIG_FILE, nearest_root
from orkestra.why.lookup import LOOKUP_NAME, covering, read_lookup

FILE_TOOLS = {
    "Read": "file_path",
    "Edit": "file_path",
    "Write": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
}
MAX_RECORDS = 6
MAX_CONTEXT = 2_000
SEEN_DIR = "memory-hook"  # below the state dir: one file per session, the record ids already shown
USAGE = "usage: orkestra-why-hook [--lookup PATH] [--state DIR]  (a Claude Code hook payload on stdin)"


def _project(payload: dict, env: Mapping[str, str]) -> str | None:
    """The nearest folder holding orkestra.yaml at or above the project dir (else the cwd), else the start."""
    for start in (env.get("CLAUDE_PROJECT_DIR"), payload.get("cwd")):
        if isinstance(start, str) and start and os.path.isdir(start):
            return nearest_root(start, (CONFIG_FILE,), os.path.isfile) or os.path.realpath(start)
    return None


def _relative(path: str, project: str) -> str | None:
    full = os.path.realpath(path if os.path.isabs(path) else os.path.join(project, path))
    if full != project and not full.startswith(project + os.sep):
        return None
    rel = os.path.relpath(full, project).replace(os.sep, "/")
    return None if rel == ".git" or rel.startswith(".git/") else rel


def _seen_file(project: str, state_rel: str, session: object) -> str | None:
    """The per-session file of ids already shown, or None (no session id, or a state dir leaving the project)."""
    if not isinstance(session, str) or not session:
        return None
    name = "".join(ch for ch in session if ch.isalnum() or ch in "-_")[:80]
    folder = os.path.realpath(os.path.join(project, state_rel, SEEN_DIR))
    if not name or not folder.startswith(project + os.sep):
        return None
    return os.path.join(folder, name + ".seen")


def _read_seen(path: str | None) -> set[str]:
    if path is None:
        return set()
    try:
        with open(path, encoding="utf-8") as handle:
            return set(handle.read().split())
    except OSError:
        return set()


def _remember(path: str | None, ids: list[str]) -> None:
    """Append the ids just shown (one write; a lost line only means a repeat next time)."""
    if path is None or not ids:
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            os.write(fd, ("\n".join(ids) + "\n").encode())
        finally:
            os.close(fd)
    except OSError:
        pass


def guidance(
    payload: dict,
    env: Mapping[str, str],
    lookup_rel: str = ".claude/" + LOOKUP_NAME,
    state_rel: str | None = None,
) -> dict | None:
    """The hook's JSON answer for one payload, or None to stay silent.

    With ``state_rel`` (the state dir), records already shown in this session (``session_id``) are named
    in one line instead of repeated in full.
    """
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
    seen_path = _seen_file(project, state_rel, payload.get("session_id")) if state_rel is not None else None
    seen = _read_seen(seen_path)
    shown_before = [i for i in ids if i in seen]
    ids = [i for i in ids if i not in seen]
    header = (
        f"Orkestra memory: {rel} is covered by {len(ids) + len(shown_before)} record(s); follow their "
        f"guidance (`orkestra why {rel}` for the history)."
    )
    lines = [header]
    if shown_before:
        lines.append(f"- shown earlier this session: {', '.join(shown_before)}")
    for record_id in ids[:MAX_RECORDS]:
        record = records[record_id]
        lines.append(f"- {record_id} ({record['kind']}, {record['status']}): {record['title']}")
        lines += [f"  do: {item}" for item in record.get("do", [])]
        lines += [f"  avoid: {item}" for item in record.get("avoid", [])]
    if len(ids) > MAX_RECORDS:
        lines.append(f"- and {len(ids) - MAX_RECORDS} more: {', '.join(ids[MAX_RECORDS:])}")
    text = "\n".join(lines)
    if len(text) > MAX_CONTEXT:
        text = text[: MAX_CONTEXT - 1] + "…"
    event = (
        payload.get("hook_event_name")
        if payload.get("hook_event_name") in ("PreToolUse", "PostToolUse")
        else "PreToolUse"
    )
    _remember(seen_path, ids[:MAX_RECORDS])
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def main(argv: Sequence[str] | None = None) -> int:
    """Console-script entry point: always exits 0; prints the answer only when something applies."""
    args = list(sys.argv[1:] if argv is None else argv)
    options = {"--lookup": ".claude/" + LOOKUP_NAME, "--state": ".orkestra"}
    while args:
        if args[0] not in options or len(args) < 2:
            sys.stderr.write(USAGE + "\n")
            return 0
        options[args[0]] = args[1]
        del args[:2]
    try:
        payload = json.loads(sys.stdin.read(1 << 20) or "{}")
        answer = (
            guidance(payload, os.environ, options["--lookup"], options["--state"])
            if isinstance(payload, dict)
            else None
        )
    except Exception as exc:  # noqa: BLE001 - guidance must never break the agent's tool call
        sys.stderr.write(f"orkestra-why-hook: no guidance: {type(exc).__name__}: {exc}\n")
        return 0
    if answer is not None:
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
