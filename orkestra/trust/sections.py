"""Section alignment for ingestion: the headings ``validate`` expects, added with derived text.

Missing sections get text derived from the skill's own content (its trigger sentence, its
checkboxes, its "if … fails" lines). When nothing can be derived the section gets a plain
generic text and is reported as *flagged* so a reviewer rewrites it; no TODO markers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TRIGGER_SENTENCE = re.compile(
    r"((?:use|invoke)\s+(?:this\s+)?(?:skill\s+)?(?:when|whenever|for|if|before|after)[^.]*\.?)", re.I
)
_NUMBERED = re.compile(r"^[ \t]*\d+[.)]\s+\S", re.M)
_RULE_LINE = re.compile(
    r"^[ \t]*[-*]\s+(?:\*\*)?(?:always|never|prefer|avoid|do not|don'?t|must)\b", re.M | re.I
)
_CHECKBOX = re.compile(r"^[ \t]*[-*]\s+\[[ xX]\]\s+(.+)$", re.M)
_VERIFY_LINE = re.compile(
    r"^[ \t]*(?:[-*]|\d+[.)])\s+(.*\b(?:verify|confirm|ensure|check that|passes|succeeds)\b.*)$", re.M | re.I
)
_FAILURE_LINE = re.compile(
    r"^[ \t]*(?:[-*]|\d+[.)])?\s*(.*\bif\b.*\b(?:fails?|errors?|breaks?|cannot|can't)\b.*)$", re.M | re.I
)
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$", re.M)
SYNONYMS = {
    "When to use": ("when to use this skill", "usage", "triggers", "activation", "when to apply"),
    "Success criteria": ("verification", "done when", "definition of done", "validation"),
    "Failure recovery": ("troubleshooting", "error handling", "recovery", "if something fails"),
}
TYPE_ANCHORS = {
    "Steps": _NUMBERED,
    "Rules": _RULE_LINE,
    "Checklist": re.compile(r"^[ \t]*[-*]\s+\[[ xX]\]", re.M),
}
GENERIC = {
    "Success criteria": "- The outcome the description promises is achieved and shown with evidence "
    "(command output, test results or file references).",
    "Failure recovery": "- If a step fails, stop, report the failing step with its error output, and fix the "
    "cause before continuing; never skip a failed step.",
    "Steps": "1. Apply the guidance above to the task at hand.\n2. Check the result against the success criteria.",
    "Rules": "- Always follow the guidance above.\n- Never claim completion without evidence.",
    "Checklist": "- [ ] The guidance above was applied.\n- [ ] The success criteria are met.",
}


@dataclass(frozen=True, slots=True)
class AddedSection:
    title: str
    derived: bool  # False: generic text that a reviewer should rewrite

    def to_dict(self) -> dict:
        return {"title": self.title, "derived": self.derived}


def has_heading(body: str, title: str) -> bool:
    return bool(re.search(rf"^##\s+{re.escape(title)}\b", body, re.M | re.I))


def align_sections(body: str, description: str, required: tuple[str, ...]) -> tuple[str, list[AddedSection]]:
    """``body`` with every ``## <title>`` of ``required`` present; and what was added."""
    added: list[AddedSection] = []
    for title in required:
        if has_heading(body, title):
            continue
        anchor = TYPE_ANCHORS.get(title)
        match = anchor.search(body) if anchor else None
        if match:
            start = body.rfind("\n", 0, match.start()) + 1
            body = f"{body[:start]}## {title}\n\n{body[start:]}"
            added.append(AddedSection(title, True))
            continue
        text, derived = _derive(title, body, description)
        if title == "When to use":
            body = _after_title(body, f"## {title}\n\n{text}\n")
        else:
            body = f"{body.rstrip()}\n\n## {title}\n\n{text}\n"
        added.append(AddedSection(title, derived))
    return body, added


def _after_title(body: str, section: str) -> str:
    first = _HEADING.search(body)
    if first and first.group(1) == "#":
        end = body.find("\n", first.end())
        end = len(body) if end < 0 else end + 1
        paragraph = body.find("\n\n", end)
        cut = end if paragraph < 0 or _HEADING.match(body, end) else paragraph + 2
        return f"{body[:cut].rstrip()}\n\n{section}\n{body[cut:].lstrip()}"
    return f"{section}\n{body.lstrip()}"


def _derive(title: str, body: str, description: str) -> tuple[str, bool]:
    synonym = next(
        (
            h.group(2)
            for h in _HEADING.finditer(body)
            if h.group(2).strip().lower() in SYNONYMS.get(title, ())
        ),
        None,
    )
    if synonym:
        return f"See *{synonym}* below.", True
    if title == "When to use":
        trigger = _TRIGGER_SENTENCE.search(description)
        return (
            (trigger.group(1)[0].upper() + trigger.group(1)[1:].rstrip(".") + ".", True)
            if trigger
            else (f"Use this skill for: {description.strip()}", True)
        )
    if title == "Success criteria":
        items = _CHECKBOX.findall(body) or _VERIFY_LINE.findall(body)
        if items:
            return "\n".join(f"- {item.strip()}" for item in items[:5]), True
    if title == "Failure recovery":
        items = _FAILURE_LINE.findall(body)
        if items:
            return "\n".join(f"- {item.strip()}" for item in items[:5]), True
    return GENERIC[title], False
