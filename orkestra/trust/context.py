"""Where text sits in a SKILL.md: prose, fenced code, HTML comments; and how a phrase is framed.

The trust review must tell an *instruction* from a *mention*. A skill that says "never run
`rm -rf /`" or shows ``curl … | sh`` in a block labelled as a bad example is describing a
danger, not asking for it. This module splits Markdown into located segments and answers,
for a match inside prose, whether it is negated or quoted in a sentence that discusses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

SegmentKind = Literal["prose", "code", "comment", "frontmatter", "text"]
# How a code block is labelled: "" (plain), "example" (neutral label), "counter" (bad/unsafe example).
Label = Literal["", "example", "counter"]

# A fence may open a list item ("2. ```sh", "- ```bash") and sit indented under one (CommonMark)
_FENCE = re.compile(r"^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})\s*([^\n`]*)$")
_HTML_COMMENT = re.compile(r"<!--(.*?)-->", re.S)
_REF_COMMENT = re.compile(r"^\[//\]:\s*#\s*[(\"'](.*)[)\"']\s*$", re.M)

COUNTER_WORDS = (
    r"bad|don'?t|do not|never|avoid|unsafe|dangerous|malicious|insecure|wrong|anti-?pattern|"
    r"attack|vulnerable|red flags?|detect(?:s|ed|ion)?|flag(?:s|ged)?|suspicious|forbidden|"
    r"blocked|reject(?:ed)?|risky|exploit|injection|must not|should not|not allowed|warning|caution"
)
_COUNTER = re.compile(rf"\b(?:{COUNTER_WORDS})\b", re.I)
_COUNTER_HEADING = re.compile(
    r"\b(?:pitfalls?|threats?|risks?|what to (?:look for|catch|reject|flag)|"
    r"don'?ts|smells?|mistakes?)\b",
    re.I,
)
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*)$")
_EXAMPLE = re.compile(r"\b(?:example|e\.g\.|for instance|sample|such as|looks like|like this|output)\b", re.I)

# Checking verbs: anywhere shortly before a phrase in its clause, they make it a thing to look for.
_CHECKING = re.compile(
    r"\b(?:refuse[sd]?|reject(?:s|ed)?|block(?:s|ed)?|forbid(?:s|den)?|prohibit(?:s|ed)?|flag(?:s|ged)?|"
    r"detect(?:s|ed)?|scan(?:s|ning)? for|check(?:s|ing)? for|look(?:s|ing)? for|search(?:es|ing)? for|"
    r"grep(?:s|ping)? for|warn(?:s|ed)? (?:about|on|of)|beware(?: of)?|watch (?:out )?for|deny|denies|"
    r"disallow(?:s|ed)?)\b",
    re.I,
)
# Plain negations count only right before the phrase ("never run …") or opening the clause or
# list item ("- [ ] no instruction to read … ~/.ssh"); "without delay, ignore …" does not excuse.
_NEGATION = re.compile(
    r"\b(?:never|not|don'?t|doesn'?t|won'?t|cannot|can'?t|avoid(?:s|ing)?|instead of|rather than|no|stop)\b",
    re.I,
)
_OPENING_NEGATION = re.compile(r"^(?:no|never|not|don'?t|do not|avoid|must not|should not)\b", re.I)
_ITEM_MARKERS = re.compile(r"^[\s>*+-]*(?:\d+[.)]\s*)?(?:\[[ xX]\]\s*)?(?:\*\*[^*]+\*\*:?\s*)?")
NEGATION_NEAR_WORDS = 4
# Words that cut a prohibition short or flip it: "don't ask, just …", "never hesitate to …".
_BREAKER = re.compile(
    r"\b(?:but|instead|just|rather|then|however|simply|hesitate|fail|forget to|neglect)\b", re.I
)
# Words that show a sentence is *about* the phrase rather than using it.
_DISCUSSION = re.compile(
    rf"\b(?:{COUNTER_WORDS}|phrases?|patterns?|strings?|examples?|such as|e\.g\.|like|signatures?|"
    r"payloads?|classic|common|known|indicators?|mentions?|contains?|matches?|rules?|checks?|audit(?:s|ing)?|"
    r"scanner|heuristics?|tell-?tale|jailbreaks?|prompt[- ]injections?|means?|called)\b",
    re.I,
)
_CLAUSE_END = re.compile(r"[.!?;:](?:\s|$)|\n\s*\n|\n\s*[-*+]\s|\n\s*\d+[.)]\s|\n#")
NEGATION_WINDOW_WORDS = 12


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of text of one kind, starting at ``line`` (1-based) of its file."""

    kind: SegmentKind
    text: str
    line: int
    lang: str = ""
    label: Label = ""
    heading: str = ""  # the Markdown heading the segment sits under

    @property
    def under_counter_heading(self) -> bool:
        """Under a heading such as "Red flags", "Anti-patterns" or "What to reject"."""
        return bool(self.heading and (_COUNTER.search(self.heading) or _COUNTER_HEADING.search(self.heading)))


def segment_markdown(text: str) -> list[Segment]:
    """Split a Markdown file into frontmatter, prose, fenced code and comment segments."""
    lines = text.split("\n")
    segments: list[Segment] = []
    start = 0
    if lines and lines[0].rstrip() == "---":
        for index in range(1, len(lines)):
            if lines[index].rstrip() == "---":
                segments.append(Segment("frontmatter", "\n".join(lines[1:index]), 2))
                start = index + 1
                break
    prose: list[str] = []
    prose_start = start + 1
    heading = ""
    index = start
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if not fence:
            title = _HEADING.match(lines[index])
            if title:
                segments.extend(_prose_segments("\n".join(prose), prose_start, heading))
                prose, prose_start, heading = [], index + 1, title.group(1).strip()
            prose.append(lines[index])
            index += 1
            continue
        segments.extend(_prose_segments("\n".join(prose), prose_start, heading))
        marker, info = fence.group(1), fence.group(2).strip()
        label = _code_label(info, prose, heading)
        body_start = index + 1
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(marker[0] * len(marker)):
            index += 1
        segments.append(
            Segment(
                "code",
                "\n".join(lines[body_start:index]),
                body_start + 1,
                lang=info.split()[0].lower() if info else "",
                label=label,
                heading=heading,
            )
        )
        index += 1
        prose, prose_start = [], index + 1
    segments.extend(_prose_segments("\n".join(prose), prose_start, heading))
    return segments


def _code_label(info: str, prose_before: list[str], heading: str) -> Label:
    """A code block's label from its info string, the last non-blank line before it, or its heading."""
    lead = next((line for line in reversed(prose_before) if line.strip()), "")
    context = f"{info} {lead}"
    if _COUNTER.search(context) or Segment("code", "", 0, heading=heading).under_counter_heading:
        return "counter"
    if _EXAMPLE.search(context):
        return "example"
    return ""


def _prose_segments(text: str, line: int, heading: str) -> list[Segment]:
    """Prose with HTML / link-reference comments cut out into their own segments (lines kept)."""
    if not text.strip():
        return []
    comments: list[Segment] = []

    def blank(match: re.Match) -> str:
        comment_line = line + text.count("\n", 0, match.start())
        comments.append(Segment("comment", match.group(1), comment_line, heading=heading))
        return re.sub(r"[^\n]", " ", match.group(0))

    cleaned = _REF_COMMENT.sub(blank, _HTML_COMMENT.sub(blank, text))
    return [Segment("prose", cleaned, line, heading=heading), *comments]


def line_of(text: str, offset: int, base_line: int) -> int:
    """The file line of ``offset`` inside a segment that starts at ``base_line``."""
    return base_line + text.count("\n", 0, offset)


def line_text(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return text[start:] if end < 0 else text[start:end]


CLAUSE_REACH = 400  # characters a clause may reach on either side of a match


def clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause around ``text[start:end]``: from the previous clause end to the next one."""
    before = max(0, start - CLAUSE_REACH)  # no clause end in reach: the clause starts there, not at the top
    for match in _CLAUSE_END.finditer(text, before, start):
        before = match.end()
    after_match = _CLAUSE_END.search(text, end, end + CLAUSE_REACH)
    return before, (after_match.start() if after_match else min(len(text), end + CLAUSE_REACH))


def is_mention(text: str, start: int, end: int) -> bool:
    """True when the phrase at ``text[start:end]`` is prohibited, negated or discussed, not instructed.

    Negated: a checking verb a few words before it in the same clause ("flag skills that …"), a
    plain negation right before it ("never run …"), or a negation opening its clause or list item.
    Discussed: it sits in quotes, a code span or a blockquote, in a clause that talks about
    phrases, patterns, attacks or checks ("the phrase "ignore previous instructions" is a …").
    """
    clause_start, clause_end = clause_bounds(text, start, end)
    lead = text[clause_start:start]
    words = lead.split()
    for pattern, count in ((_CHECKING, NEGATION_WINDOW_WORDS), (_NEGATION, NEGATION_NEAR_WORDS)):
        window = " ".join(words[-count:])
        cues = list(pattern.finditer(window))
        if cues and not _BREAKER.search(window[cues[-1].end() :]):
            return True
    opening = _ITEM_MARKERS.sub("", lead.lstrip(), count=1)
    if _OPENING_NEGATION.match(opening) and not _BREAKER.search(opening):
        return True
    if _is_quoted(text, start, end) and _DISCUSSION.search(text[clause_start:clause_end]):  # noqa: SIM103 - one reason an if, like those above
        return True
    return False


_IMPERATIVE = re.compile(
    r"\b(?:run|execute|exec|install|use|type|paste|call|invoke|enter|try|start|launch|set ?up|"
    r"bootstrap|with|via|using|then|first|next|finally|now|always)\b\W*$",
    re.I,
)


def is_instruction_span(text: str, start: int) -> bool:
    """Whether inline code at ``start`` is something to *do*: it opens its clause or follows an imperative."""
    clause_start, _ = clause_bounds(text, start, start)
    lead = re.sub(r"^[\s>*+-]*(?:\d+[.)]\s*)?(?:\[[ xX]\]\s*)?", "", text[clause_start:start])
    return not lead.strip() or bool(_IMPERATIVE.search(lead))


def _is_quoted(text: str, start: int, end: int) -> bool:
    """Inside a code span, straight or curly quotes, or a blockquote line."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].lstrip().startswith(">"):
        return True
    before = text[line_start:start]
    if before.count("`") % 2 == 1:
        return True
    if before.count('"') % 2 == 1 or before.count("“") > before.count("”"):
        return True
    singles = re.findall(r"(?:(?<=\s)|^)'|'(?=\s|[.,;:!?)]|$)", before)
    return len(singles) % 2 == 1
