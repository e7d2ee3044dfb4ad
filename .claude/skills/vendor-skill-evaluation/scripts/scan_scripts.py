#!/usr/bin/env python3
"""List risky calls in a skill's files for a human to judge. Read-only; stdlib only.

Usage: python3 scan_scripts.py path/to/skill-dir
Prints one line per hit: path:line: [category] text. Exit 0 always (this triages; it does not decide).
"""

import re
import sys
from pathlib import Path

PATTERNS = {
    "network": r"curl\s|wget\s|urllib|requests\.|httpx|socket\.|fetch\(",
    "exec": r"subprocess|os\.system|os\.popen|\beval\(|\bexec\(|\|\s*(ba)?sh\b",
    "secrets": r"os\.environ|getenv|\.ssh|\.aws|\.env\b|credentials|api[_-]?key|token",
    "destructive": r"rm\s+-rf|shutil\.rmtree|git\s+reset\s+--hard|git\s+push\s+(-f|--force)|\.unlink\(",
    "injection": r"ignore (all )?(previous|prior|above) instructions|system prompt|do not tell the user",
}
TEXT_SUFFIXES = {".py", ".sh", ".js", ".ts", ".md", ".txt", ".json", ".yaml", ".yml", ""}


def scan(root: Path):
    compiled = {name: re.compile(rx, re.IGNORECASE) for name, rx in PATTERNS.items()}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            yield f"{path}: [binary] not text; inspect by hand"
            continue
        for number, line in enumerate(lines, start=1):
            for name, rx in compiled.items():
                if rx.search(line):
                    yield f"{path}:{number}: [{name}] {line.strip()[:120]}"


if __name__ == "__main__":
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    for hit in scan(Path(sys.argv[1])):
        print(hit)
