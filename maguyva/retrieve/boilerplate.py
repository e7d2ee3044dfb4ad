"""What an issue text says that is not about the code: the repository's own issue-template prompts;
and the files its GitHub links point at. Pure, apart from reading the template files out of the store.

An issue written from a template repeats its prompts ("A clear and concise description of what
you expected to happen", "- OS: [e.g. Unix/Linux/Mac/Win]") and those words, spread over every
issue, pull the large hub files up. The prompts come from the repository's own
``.github/ISSUE_TEMPLATE`` files, so they are removed from the query; what the reporter wrote
after a prompt stays.

Images, HTML and links are left in the text: measured on the dev issues, their words help as often
as they hurt (an image URL's ``images``/``png`` point at the code that writes images).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maguyva.store.base import Store

MAX_TEMPLATE_BYTES = 64_000  # of each template file read
MAX_TEMPLATES = 20
MAX_PROMPT_WORDS = 40
_TEMPLATE = re.compile(
    r"(^|/)\.github/(ISSUE_TEMPLATE/[^/]+\.(md|ya?ml)|ISSUE_TEMPLATE\.md)$|"
    r"(^|/)ISSUE_TEMPLATE\.md$",
    re.I,
)
_YAML_KEY = re.compile(
    r"^\s*(-\s*)?(label|description|placeholder|value|title|name|about)\s*:\s*[|>]?[-+]?\s*", re.I
)
_MARKUP = re.compile(r"[*_#>`\"'|]+|^\s*[-+]\s+|<!--|-->")
_SPACES = re.compile(r"\s+")
_BLOB = re.compile(r"github\.com/[\w.-]+/[\w.-]+/(?:blob|tree)/[\w.-]+/([\w./-]+\.\w+)")


def normalise(line: str) -> str:
    return _SPACES.sub(" ", _MARKUP.sub(" ", line)).strip().lower()


def template_lines(texts: Iterable[str]) -> frozenset[str]:
    """The prompts of issue templates (Markdown or GitHub's YAML forms), normalised, two words or more."""
    found = set()
    for text in texts:
        for line in text[:MAX_TEMPLATE_BYTES].splitlines():
            prompt = normalise(_YAML_KEY.sub("", line))
            if len(prompt.split()) >= 2 and not prompt.startswith(("type:", "id:", "labels:")):
                found.add(prompt)
    return frozenset(found)


def store_templates(store: Store) -> frozenset[str]:
    """The issue-template prompts of the indexed repository (none when it has no template)."""
    paths = [path for path in sorted(store.known_paths()) if _TEMPLATE.search(path)][:MAX_TEMPLATES]
    texts = [store.file_text(path) or "" for path in paths]
    return template_lines(texts)


def without_prompts(text: str, prompts: frozenset[str]) -> str:
    """``text`` with each line's template prompt removed; what follows the prompt on the line stays."""
    if not prompts:
        return text
    kept = []
    for line in text.splitlines():
        plain = normalise(line)
        if plain in prompts:
            continue
        for prompt in _leading(plain, prompts):
            plain = plain[len(prompt) :].strip()
            line = plain
            break
        kept.append(line)
    return "\n".join(kept)


def _leading(plain: str, prompts: frozenset[str]) -> list[str]:
    """Template prompts that start the line (``os: [e.g. linux/mac]`` starts ``os: [e.g. linux/mac] linux``)."""
    words = plain.split(maxsplit=MAX_PROMPT_WORDS)  # prompts are short: a hostile long line costs no more
    return [
        " ".join(words[:n])
        for n in range(min(len(words) - 1, MAX_PROMPT_WORDS), 1, -1)
        if " ".join(words[:n]) in prompts
    ][:1]


def linked_paths(text: str) -> list[str]:
    """Files a GitHub link points at (``…/blob/<ref>/src/pkg/mod.py#L10`` → ``src/pkg/mod.py``)."""
    return _BLOB.findall(text)
