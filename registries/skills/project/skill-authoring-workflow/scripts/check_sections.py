#!/usr/bin/env python3
"""Report the sections a SKILL.md lacks for its type. Read-only; stdlib only.

Usage: python3 check_sections.py registries/skills/project/my-skill/SKILL.md [...]
Exit 0 when every file has its sections, 1 otherwise.
"""

import re
import sys
from pathlib import Path

COMMON = ("When to use", "Success criteria", "Failure recovery")
BY_TYPE = {"workflow": ("Steps",), "discipline": ("Rules",), "checklist": ("Checklist",)}


def skill_type(frontmatter: str) -> str:
    match = re.search(r"^\s+type:\s*['\"]?(\w+)", frontmatter, re.MULTILINE)
    return match.group(1) if match else ""


def missing(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    parts = text.split("\n---", 1)
    if not text.startswith("---") or len(parts) < 2:
        return ["frontmatter"]
    kind = skill_type(parts[0])
    body = parts[1]
    wanted = COMMON + BY_TYPE.get(kind, ())
    return [
        title
        for title in wanted
        if not re.search(rf"^##\s+{re.escape(title)}\b", body, re.MULTILINE | re.IGNORECASE)
    ]


def main(paths: list[str]) -> int:
    failed = 0
    for name in paths:
        gaps = missing(Path(name))
        if gaps:
            failed += 1
            print(f"{name}: missing {', '.join(gaps)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
