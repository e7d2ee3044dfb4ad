"""Query understanding: split a question or an issue text into the parts retrieval can use. Pure.

A query is read as prose plus, where present: identifiers (CamelCase, snake_case, dotted names,
``Class.method``), file paths and module names, short single-line quoted literals, code fences
(read as code: the names they define, call and import) and tracebacks (each frame's file, line
and function, plus the final exception type and message).

A question is parsed once (``parse``) and everything downstream reads the one ``ParsedQuery``: the
intent classifier, the retrievers (``maguyva.retrieve.hits.Retriever``), the message lookup and the
file ranker. The token patterns (identifiers, paths, quoted parts, words, error names) live here only.
"""

from __future__ import annotations

import errno
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from maguyva.retrieve.boilerplate import linked_paths
from maguyva.retrieve.stopwords import STOP_WORDS
from maguyva.search_words import search_words

LONG_WORDS = 25  # a query with more words than this (or several lines) describes a task
TITLE_WEIGHT = 1.0  # an issue's title says what it is about: its words count once more
MAX_LITERAL = 80  # a quoted literal longer than this, or spanning lines, is prose or code

_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n(.*?)(?:^[ \t]*\1[ \t]*$|\Z)", re.S | re.M)
_INDENTED_PROMPT = re.compile(r"^\s*(>>>|\.\.\.|In \[\d+\]:|\$ )", re.M)
_FRAME_PY = re.compile(r'File "([^"]+)", line (\d+)(?:, in ([\w<>.]+))?')
_FRAME_IPY = re.compile(r"^(?:File )?(\S+\.py):(\d+)(?:,| in) ?([\w<>.]*)", re.M)
# IPython 8: ``File ~/env/…/xarray/core/common.py:1815, in get_chunksizes(variables)``
_FRAME_IPY8 = re.compile(r"^[ \t]*File[ \t]+(\S+?\.py):(\d+)(?:,[ \t]*in[ \t]+([\w<>.]+))?", re.M)
# IPython 7 and older: ``~/xarray/core/common.py in get_chunksizes(variables)``, then ``-> 1815 …``
_FRAME_IPY7 = re.compile(r"^[ \t]*(\S+\.py)[ \t]+in[ \t]+([\w<>.]+)\(", re.M)
_ARROW_LINE = re.compile(r"^[ \t]*-+>[ \t]*(\d+)", re.M)
# a pasted environment: ``pip list``/``conda list`` rows, ``INSTALLED VERSIONS`` (``key: value``) rows,
# separators; four or more in a row say nothing about where the bug is and are left out
_LISTING_LINE = re.compile(
    r"^[ \t]*(?:[-=*#]{3,}[ \t]*|[A-Za-z_][\w.\-]*(?:\[[\w,]+\])?(?::[ \t]+\S.{0,70}|[ \t]*[=<>~]=[ \t]*\S+"
    r"|[ \t]+v?\d[\w.+\-]*(?:[ \t]+\S+){0,3}))[ \t]*$"
)
LISTING_RUN = 4
_FRAME_PYTEST = re.compile(r"^(\S+\.py):(\d+): (?:in )?([\w<>.]+)", re.M)
_EXCEPTION = re.compile(
    r"^\s*(?:E\s+)?((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|"
    r"Iteration|Fault))(?::\s*(.*))?$",
    re.M,
)
_QUOTED = re.compile(r"`([^`\n]+)`|\"([^\"\n]{1,80})\"|'([^'\n]{2,80})'")
_PATH = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)+[\w.-]+\.[A-Za-z]{1,6}|[\w-]+\.(?:py|pyi|js|ts|tsx|go|rs|java|rb|"
    r"c|h|cpp|hpp|cs|kt|scala|php|toml|cfg|ini|yaml|yml|json|rst|md))\b"
)
_DOTTED = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_CAMEL = re.compile(r"\b(?:[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Z]{2,}[a-z]\w*)\b")
_SNAKE = re.compile(r"\b_*[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+_*\b|\b__\w+__\b")
_DEFINES = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)", re.M)
_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+)?import\s+([\w., ]+?)(?:\s+as\s+\w+)?\s*$", re.M)
_CALL = re.compile(r"([A-Za-z_][\w.]*)\s*\(")
_ATTRIBUTE = re.compile(r"\.([A-Za-z_]\w*)")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a query's words as the retrievers read them (``word_tokens``)
_TITLE_WORD = re.compile(r"[A-Za-z_]\w*")
_LETTERS = re.compile(r"[A-Za-z]+")
# a declaration-shaped query (``def parse_config``, ``class Workspace``, ``func NewServer``)
DECLARATION = re.compile(
    r"^\s*(def|class|func|fn|function|import|from|interface|struct|enum|trait|type|module|package|const|var|"
    r"let|impl|namespace|public|private|protected)\s+\S",
    re.I,
)
_ERRNO = "|".join(sorted(errno.errorcode.values(), key=len, reverse=True))  # ENOENT, EACCES … (not EDITOR)
ERROR_TOKEN = re.compile(
    r"(?i:\b(traceback|exception|errno|stack\s*trace|segfault)\b|\b(error|panic|fatal):)"
    rf"|\b({_ERRNO})\b|\b[A-Z][a-zA-Z]+(Error|Exception)\b"
)
_GENERIC_ERROR = ("traceback", "exception", "error", "panic", "fatal")  # error words that name nothing
# the name after a references, impact or where-is phrase: ``who calls X``, ``impact of changing X``
_OBJECT = re.compile(
    r"\b(?:who\s+calls|callers?\s+of|usages?\s+of|uses\s+of|references?\s+to|invocations?\s+of|"
    r"(?:who|what)\s+(?:uses|imports|calls)|importers?\s+of|"
    r"what\s+depends\s+on|dependents\s+of|impact\s+of(?:\s+changing)?|blast\s+radius\s+of|"
    r"where\s+is|definition\s+of|affected\s+by)\s+`?([A-Za-z_][\w.:/-]*)",
    re.I,
)
_NOISE_CALLS = frozenset(
    [
        "print",
        "len",
        "str",
        "int",
        "float",
        "list",
        "dict",
        "set",
        "tuple",
        "range",
        "type",
        "isinstance",
        "super",
        "repr",
        "open",
        "sorted",
        "map",
        "zip",
        "enumerate",
        "getattr",
        "setattr",
        "hasattr",
        "min",
        "max",
        "sum",
        "abs",
        "any",
        "all",
        "format",
    ]
)


@dataclass(frozen=True, slots=True)
class Frame:
    """One traceback frame: the file as printed (absolute, site-packages…), its line and function."""

    file: str
    line: int
    function: str


@dataclass(frozen=True)
class ParsedQuery:
    """A question or an issue text, parsed once; every reader of the query reads this."""

    text: str
    prose: str  # the text with code fences and tracebacks removed
    code: str  # the code fences' bodies
    identifiers: tuple[str, ...]  # compound names (CamelCase, snake_case, dotted, Class.method)
    paths: tuple[str, ...]  # file paths as written
    modules: tuple[str, ...]  # dotted names that may be modules
    literals: tuple[str, ...]  # short single-line quoted parts
    code_defines: tuple[str, ...]
    code_calls: tuple[str, ...]
    code_imports: tuple[str, ...]
    frames: tuple[Frame, ...]
    exception: str | None  # the final exception type (last frame's error)
    exception_message: str
    words: int
    lines: int
    has_fence: bool
    names: tuple[str, ...] = field(default=())  # every name worth looking up as a definition
    title: str = ""  # an issue's first line, when the text has several
    question: bool = False  # asked about the code (how/where/which… or ends in ``?``), not pasted output
    word_tokens: tuple[str, ...] = ()  # every ``WORD`` of the text, in order

    @property
    def is_task(self) -> bool:
        """A long text (an issue, a task, a paragraph): never a literal lookup, never the fast path."""
        return self.words > LONG_WORDS or self.lines > 3 or self.has_fence or bool(self.frames)

    @property
    def quoted_share(self) -> float:
        """How much of the query the quoted literals make up (0..1)."""
        size = len(self.text.strip()) or 1
        return min(1.0, sum(len(q) + 2 for q in self.literals) / size)

    @cached_property
    def stems(self) -> dict[str, float]:
        """The query's stemmed words, weighted: prose once, code half, and the names it stresses
        (identifiers, quoted parts, frames' functions, the exception) and the title once more; stop
        words left out. A mapping to read, never to change: every reader of the question shares it."""
        counts: Counter = Counter()
        for token in tokens(self.prose):
            counts[token] += 1.0
        for token in tokens(self.code):
            counts[token] += 0.5
        for name in (*self.identifiers, *self.literals, *(f.function for f in self.frames)):
            for token in tokens(name):
                counts[token] += 1.0
        if self.exception:
            for token in tokens(f"{self.exception} {self.exception_message}"):
                counts[token] += 1.0
        for token in tokens(self.title):
            counts[token] += TITLE_WEIGHT
        return {
            t: 1.0 + math.log(c) if c >= 1 else c
            for t, c in counts.items()
            if t not in STOPPED and len(t) >= 2
        }

    @cached_property
    def title_words(self) -> tuple[str, ...]:
        """The title's words as written (letters, digits, ``_``; starting with a letter or ``_``)."""
        return tuple(_TITLE_WORD.findall(self.title))

    @cached_property
    def plain_words(self) -> tuple[str, ...]:
        """The title's and the prose's runs of letters, lower-cased, in order (``type hints`` → ``type``,
        ``hints``): what the ranker joins into the compounds code spells as one word."""
        return tuple(w.lower() for w in _LETTERS.findall(f"{self.title}\n{self.prose}"))

    @cached_property
    def declared(self) -> str | None:
        """The name a declaration-shaped query declares (``def parse_config(path)`` → ``parse_config``;
        "" when no name follows the keyword); None when the query is no declaration."""
        if not DECLARATION.match(self.text):
            return None
        declared = re.sub(r"^\s*\w+\s+", "", self.text).strip()
        return re.split(r"[\s(:<{]", declared, maxsplit=1)[0]

    @cached_property
    def error_tokens(self) -> tuple[str, ...]:
        """The error words the text holds (``Traceback``, ``error:``, ``ENOENT``, ``KeyError``), in order."""
        return tuple(m.group(0) for m in ERROR_TOKEN.finditer(self.text))

    @cached_property
    def terms(self) -> tuple[str, ...]:
        """What a short query looks up by name, most specific first: its quoted phrases, the object of a
        references, impact or where-is phrase, the error names it gives, then its identifiers (a
        declaration's name first, paths before the other names). A task text looks up nothing by
        name: the file ranker reads it whole."""
        if self.is_task:
            return ()
        quoted = [literal.strip("\"'`") for literal in self.literals]
        quoted += [
            m.group(1).rstrip(".:")
            for m in _OBJECT.finditer(self.text)
            if m.group(1).lower() not in ("the", "a")
        ]
        quoted += [
            token.rstrip(":")
            for token in self.error_tokens
            if token[0].isupper() and not token.lower().startswith(_GENERIC_ERROR)
        ]
        identifiers = [*self.paths, *self.identifiers]
        if self.declared is not None:
            identifiers.insert(0, self.declared)
        return tuple(dict.fromkeys(term for term in quoted + identifiers if term))


def parse(query: str) -> ParsedQuery:
    """The query's parts, once per question (what only a short query needs is worked out when asked)."""
    text = without_listings(query.replace("\r\n", "\n").replace("\r", "\n"))
    fences = [m.group(2) for m in _FENCE.finditer(text)]
    prose = _FENCE.sub("\n", text)
    frames = _frames(text)
    exception, message = _exception(text) if frames or "Error" in text or "Exception" in text else (None, "")
    code = "\n".join(fences)
    # doctest-style and console lines in the prose are code too
    prompt_lines = [line for line in prose.splitlines() if _INDENTED_PROMPT.match(line)]
    code_all = (
        code + "\n" + "\n".join(re.sub(r"^\s*(>>>|\.\.\.|In \[\d+\]:|\$ )\s?", "", ln) for ln in prompt_lines)
    )
    literals = tuple(
        dict.fromkeys(
            q
            for q in (a or b or c for a, b, c in _QUOTED.findall(prose))
            if q.strip() and len(q) <= MAX_LITERAL
        )
    )
    defines = tuple(dict.fromkeys(_DEFINES.findall(code_all)))
    imports: list[str] = []
    for module, names in _IMPORT.findall(code_all):
        for name in names.split(","):
            name = name.strip().split(" ")[0]
            if name and name != "*":
                imports.append(f"{module}.{name}" if module else name)
        if module:
            imports.append(module)
    calls = [c for c in _CALL.findall(code_all) if c.split(".")[-1] not in _NOISE_CALLS]
    calls += _ATTRIBUTE.findall(code_all)
    identifiers = _identifiers(prose) + [i for lit in literals for i in _identifiers(lit)]
    paths = tuple(
        dict.fromkeys(
            [*(p for p in _PATH.findall(text) if not p.startswith(("http", "www."))), *linked_paths(text)]
        )
    )
    modules = tuple(
        dict.fromkeys(
            d
            for d in _DOTTED.findall(text + "\n" + " ".join(imports))
            if "." in d and not _PATH.fullmatch(d) and d.count(".") >= 1
        )
    )
    names = _names(identifiers, literals, defines, calls, imports, frames, exception)
    return ParsedQuery(
        text=query,
        prose=prose,
        code=code_all,
        identifiers=tuple(dict.fromkeys(identifiers)),
        paths=paths,
        modules=modules,
        literals=literals,
        code_defines=defines,
        code_calls=tuple(dict.fromkeys(calls)),
        code_imports=tuple(dict.fromkeys(imports)),
        frames=tuple(frames),
        exception=exception,
        exception_message=message,
        words=len(text.split()),
        lines=len([ln for ln in text.splitlines() if ln.strip()]),
        has_fence=bool(fences),
        names=names,
        title=_title(text),
        question=_is_question(query),
        word_tokens=tuple(WORD.findall(query)),
    )


_QUESTION = re.compile(
    r"^\s*(how|where|which|what|why|when|who|does|do|is|are|can|should|could|would|explain|show|find|list)\b"
    r"|\?\s*$",
    re.I,
)


def _is_question(text: str) -> bool:
    """A question about the code (starts with how/where/which… or ends in ``?``), not pasted output."""
    return bool(_QUESTION.search(text))


def _title(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if len(lines) > 1 and not lines[0].startswith(("```", "~~~")) else ""


def _identifiers(text: str) -> list[str]:
    found = [m.group(0) for m in _DOTTED.finditer(text) if not _PATH.fullmatch(m.group(0))]
    found += _CAMEL.findall(text)
    found += [m.group(0) for m in _SNAKE.finditer(text) if not m.group(0).strip("_").isdigit()]
    return [f for f in found if len(f) >= 3]


def _names(identifiers, literals, defines, calls, imports, frames, exception) -> tuple[str, ...]:
    """Simple names a definition could carry: the last part of every dotted name, and the name itself."""
    out: list[str] = []
    for value in [
        *identifiers,
        *(lit for lit in literals if _WORD.fullmatch(lit)),
        *calls,
        *imports,
        *(f.function for f in frames),
        *([exception] if exception else []),
    ]:
        for part in value.split("."):
            if part and part not in ("<module>", "self", "cls") and not part.startswith("<"):
                out.append(part)
    return tuple(dict.fromkeys(n for n in out if len(n) >= 3 and not n.isdigit()))


def without_listings(text: str) -> str:
    """The text less its pasted environment listings (runs of ``LISTING_RUN`` or more listing lines)."""
    lines = text.split("\n")
    keep = [True] * len(lines)
    run: list[int] = []
    for number, line in enumerate([*lines, ""]):
        if line.strip() and number < len(lines) and _LISTING_LINE.match(line):
            run.append(number)
            continue
        if line.strip() or number == len(lines):  # a blank line neither breaks nor extends a run
            if len(run) >= LISTING_RUN:
                for dropped in run:
                    keep[dropped] = False
            run = []
    return "\n".join(line for line, kept in zip(lines, keep) if kept)


def _frames(text: str) -> list[Frame]:
    frames = [Frame(f, int(n), fn or "") for f, n, fn in _FRAME_PY.findall(text)]
    if not frames:
        frames = [Frame(f, int(n), fn or "") for f, n, fn in _FRAME_IPY8.findall(text)]
    if not frames:
        frames = [Frame(f, int(n), fn or "") for f, n, fn in _FRAME_PYTEST.findall(text)]
    if not frames:
        frames = _ipython7_frames(text)
    if not frames and "Traceback" in text:
        frames = [Frame(f, int(n), fn or "") for f, n, fn in _FRAME_IPY.findall(text)]
    return frames


def _ipython7_frames(text: str) -> list[Frame]:
    """IPython 7's frames: the file and function on one line, the line number on the ``->`` line after it."""
    found = list(_FRAME_IPY7.finditer(text))
    frames = []
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(text)
        arrow = _ARROW_LINE.search(text, match.end(), end)
        frames.append(Frame(match.group(1), int(arrow.group(1)) if arrow else 0, match.group(2)))
    return frames


def _exception(text: str) -> tuple[str | None, str]:
    found = _EXCEPTION.findall(text)
    if not found:
        return None, ""
    name, message = found[-1]
    return name.rsplit(".", 1)[-1], message.strip()[:200]


def frame_paths(frame: Frame) -> list[str]:
    """Repository-relative candidates for a frame's file, longest first (``/x/site-packages/a/b.py`` → ``a/b.py``…)."""
    parts = [p for p in frame.file.replace("\\", "/").split("/") if p and p not in (".", "..")]
    return ["/".join(parts[i:]) for i in range(len(parts)) if parts[i:] and "site-packages" not in parts[i:]]


def module_paths(dotted: str) -> list[str]:
    """Files a dotted name may live in: ``a.b.c`` → ``a/b/c.py``, ``a/b/c/__init__.py``, ``a/b.py``…"""
    parts = dotted.split(".")
    out = []
    for end in range(len(parts), 0, -1):
        stem = "/".join(parts[:end])
        out += [f"{stem}.py", f"{stem}/__init__.py"]
    return out


def tokens(text: str) -> list[str]:
    """Code-aware search tokens: each identifier lower-cased, plus its parts when it is compound."""
    return [stem(w) for w in search_words(text).split()]


@lru_cache(maxsize=1 << 16)
def token_set(text: str) -> frozenset[str]:
    """``tokens`` as a set, cached: definitions' own words are asked for again and again."""
    return frozenset(tokens(text))


_SUFFIXES = ("ings", "ing", "ies", "ed", "es", "s")


@lru_cache(maxsize=1 << 17)
def stem(word: str) -> str:
    """A light suffix stripper, so ``registering``/``registers`` meet ``register``, ``computed`` meets
    ``compute`` (a final ``e`` goes too: ``comput``) and ``stripped`` meets ``strip``."""
    if len(word) <= 4 or not word.isalpha():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            base = word[: -len(suffix)]
            if suffix == "ies":
                return base + "y"
            if suffix == "s" and word.endswith("ss"):
                return word
            if suffix in ("ed", "ing") and base[-1] == base[-2] and base[-1] not in "lsz":
                return base[:-1]  # stripped → strip, mapping → map
            return base[:-1] if suffix == "s" and base.endswith("e") else base
    return word[:-1] if word.endswith("e") else word


# query tokens are stemmed ("where" arrives as "wher"): the stop words' stems are left out too
STOPPED = STOP_WORDS | {stem(word) for word in STOP_WORDS}
