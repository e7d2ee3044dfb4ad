"""Shell script audit on the syntax tree (the tree-sitter bash grammar, see ``shell_syntax``).

The walk visits every command of the script — in pipelines, lists, ``if``/``while``/``for``/``case``
bodies, functions and subshells — with its words (quotes removed, variables that hold a literal
replaced by it), its redirections and here-strings, and checks each with ``shell_checks``: downloads
piped to an interpreter, uploads of files or secrets, environment dumps, credential reads, destructive
commands and writes outside the skill folder. Command substitutions (``$(…)``, backticks, ``<(…)``)
are walked on their own and what they produce (remote content, secrets, decoded data) flows into the
command that uses them. Shell code run by shell code — ``bash -c CODE``, ``eval`` of literal words, a
heredoc fed to an interpreter — is parsed and audited again, ``MAX_DEPTH`` levels deep at most.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from orkestra.trust.findings import Finding, excerpt
from orkestra.trust.patterns import FETCHERS, INTERPRETERS, NETCATS, SECRET_VAR, SENSITIVE_PATH
from orkestra.trust.shell_checks import (
    EXPANSION,
    RISKY,
    Line,
    PythonAuditor,
    Script,
    check_writes,
    command,
    is_decoder,
    location_of,
    track_dir,
)
from orkestra.trust.shell_command import analyse_command, here_string_feed, output_of_command
from orkestra.trust.shell_syntax import (
    BRANCHES,
    MAX_DEPTH,
    SUBSTITUTIONS,
    WORD_NODES,
    Parsed,
    Subst,
    Word,
    ansi_c,
    assemble,
    conditional,
    descendants,
    heredoc_error,
    inside,
    literal,
    notation,
    opened_heredocs,
    parse,
    unbacktick,
    unescape,
)

MAX_SUBSTITUTIONS = 100
MAX_NESTING = 200  # syntax nested deeper than this (((((…))))) is not walked
_WRITE_REDIRECTS = {">", ">>", ">|", "&>", "&>>"}
# statements holding statements: every branch, and those that group without branching
_COMPOUND = BRANCHES | {"program", "case_statement", "compound_statement", "subshell", "negated_command"}
_COMMANDS = {"command", "declaration_command", "unset_command", "test_command"}
_REDIRECTS = {"file_redirect", "herestring_redirect", "heredoc_redirect"}
_FETCH_WORD = re.compile(
    r"\b(?:curl|wget|fetch|aria2c|iwr|irm|invoke-webrequest|lwp-download|http|https)\b", re.I
)


class _TooDeep(Exception):
    """Syntax nested deeper than MAX_NESTING."""


def audit_shell(
    text: str,
    file: str,
    base_line: int = 1,
    within: str | None = None,
    python: PythonAuditor | None = None,
    downloads: frozenset[str] = frozenset(),
) -> list[Finding]:
    """Findings for a shell script (or a shell code block starting at ``base_line``).

    ``within``: the script's path inside its skill folder (default: guessed from ``file``), so
    ``rm -rf "$here/../build"`` can be resolved against the skill folder. ``python`` audits the
    code of ``python -c CODE`` (``python_audit.audit_shell_script`` passes ``audit_python``).
    """
    script = Script(location=location_of(file, within), python=python, downloads=set(downloads), shell=_audit)
    return _audit(text, file, base_line, script)


def audit_argv(
    words: list[str], file: str, line: int, raw: str, python: PythonAuditor | None = None
) -> list[Finding]:
    """Findings for one command given as an argument vector (e.g. ``subprocess.run([...])``)."""
    record = Line(file, line, raw, Script(python=python, shell=_audit))
    analyse_command(words, [], record, piped_from=[], pipeline_has_network=False)
    return record.findings


def fetched_files(text: str) -> set[str]:
    """Names of the files a shell script downloads (``curl -o F``, ``wget URL``, ``curl URL > F``): another
    file of the skill that runs one of them runs a download (a command split across two files)."""
    if not _FETCH_WORD.search(text):
        return set()
    parsed = parse(notation(text))
    script = Script()
    if not parsed.error:
        try:
            _Walk(parsed, "", 1, script).block(parsed.root)
        except _TooDeep:
            pass
    return script.downloads


def _audit(text: str, file: str, base_line: int, script: Script) -> list[Finding]:
    if script.depth > MAX_DEPTH:
        message = f"shell code nested more than {MAX_DEPTH} levels deep in shell code: not reviewable"
        return [Finding("shell.unreviewable", "high", file, base_line, excerpt(text[:500]), message)]
    parsed = parse(notation(text))
    if parsed.error:
        first = text[:500].split("\n", 1)[0]
        return [Finding("shell.unreviewable", "high", file, base_line, excerpt(first), parsed.error)]
    walk = _Walk(parsed, file, base_line, script)
    try:
        walk.block(parsed.root)
    except _TooDeep:
        walk.record(None).add(
            "unreviewable", "high", f"shell syntax nested more than {MAX_NESTING} levels: not reviewable"
        )
    return [finding for row in sorted(walk.records) for finding in walk.records[row].findings]


@dataclass
class _Stage:
    """One command of a pipeline: its words (None for a compound command), files it writes, what a
    here-string feeds it, and its heredoc."""

    words: list[str] | None
    name: str = ""
    writes: list[str] = field(default_factory=list)
    fed: list[str] = field(default_factory=list)
    heredoc: object = None


class _Walk:
    """One walk over a parsed script; ``fixed`` is the line every finding goes to (inside a substitution)."""

    def __init__(self, parsed: Parsed, file: str, base_line: int, script: Script, fixed: Line | None = None):
        self.parsed, self.file, self.base_line, self.script = parsed, file, base_line, script
        self.fixed = fixed
        self.records: dict[int, Line] = {}
        self.collected: list[list[str]] | None = None  # the commands of the substitution being walked
        self.joined = None  # a command walked together with the bodiless heredoc line after it
        self.nesting = 0
        self.inside = 0  # substitutions being walked: no pre-check, no assignment tracking
        self.offset = 0  # the row of this text in the script (a line read on its own)
        self.one_line = False  # this walk reads one line of an unparsable region
        self.lines = parsed.lines

    def unchecked(self) -> bool:
        """Inside a substitution every statement is walked and no assignment is remembered."""
        return self.fixed is not None or self.inside > 0

    def text(self, node) -> str:
        return self.parsed.text(node)

    def record(self, node) -> Line:
        """The line a node's findings go to: one per script line, as a reader sees them."""
        if self.fixed is not None:
            return self.fixed
        row = self.offset + (node.start_point[0] if node is not None else 0)
        found = self.records.get(row)
        if found is None:
            found = self.records[row] = Line(self.file, self.base_line + row, self._logical(row), self.script)
        return found

    def _logical(self, row: int) -> str:
        lines = self.lines
        text = lines[row] if row < len(lines) else ""
        while text.endswith("\\") and row + 1 < len(lines):
            row += 1
            text = text[:-1] + " " + lines[row]
        return text.strip()

    def _enter(self) -> None:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise _TooDeep

    # --- statements -------------------------------------------------------------------------

    def block(self, node) -> None:
        children = node.named_children
        for index, child in enumerate(children):
            after = children[index + 1] if index + 1 < len(children) else None
            if (
                child.type == "ERROR"
                and index
                and heredoc_error(child)
                and self.joined is children[index - 1]
            ):
                continue  # ``cat <<EOF | sh`` without its body: walked with the command before it
            if child.type == "ERROR" and node.type != "ERROR" and not self.unchecked() and not self.one_line:
                before = children[index - 1].end_point[0] if index else -1
                if child.start_point[0] > before:
                    self.by_lines(child)  # what the grammar could not parse, read as a line reader would
                    continue
            if after is not None and heredoc_error(after) and child.type in _COMMANDS | {"pipeline"}:
                self.joined = child
                if self.unchecked() or self.passes(child) or self.passes(after):
                    self.pipeline(child, extra=after)
                continue
            self.statement(child)

    def by_lines(self, node) -> None:
        """Each line of an unparsable region parsed on its own (continuations joined, the body of a
        heredoc it opens skipped): a grammar gap never hides the commands after it."""
        lines, row = self.lines, node.start_point[0]
        while row <= node.end_point[0] and row < len(lines):
            start, text = row, lines[row]
            while text.endswith("\\") and row + 1 < len(lines):
                row += 1
                text = text[:-1] + " " + lines[row]
            row += 1
            parsed = parse(text)
            if parsed.error:
                continue
            walk = _Walk(parsed, self.file, self.base_line, self.script)
            walk.offset, walk.lines, walk.records, walk.one_line = start, lines, self.records, True
            walk.block(parsed.root)
            delimiter = next((d for d in opened_heredocs(parsed) if d), "")
            while delimiter and row < len(lines) and lines[row].strip() != delimiter:
                row += 1
            row += 1 if delimiter else 0

    def statement(self, node) -> None:
        self._enter()
        try:
            self._statement(node)
        finally:
            self.nesting -= 1

    def _statement(self, node) -> None:
        kind = node.type
        if kind in {"comment", "heredoc_body", "heredoc_end", "heredoc_start"}:
            return
        if kind in {"variable_assignment", "variable_assignments"}:
            self.assignments(node, [node] if kind == "variable_assignment" else node.named_children)
            return
        if kind == "declaration_command" and self.declaration_is_literal(node):
            return
        if kind == "function_definition":
            self.fork_bomb(node)
        if kind in _COMPOUND or kind == "ERROR":  # what the grammar could not place: its parts, one by one
            self.block(node)
        elif kind in _COMMANDS or kind in {"pipeline", "redirected_statement"}:
            if self.unchecked() or self.passes(node):
                self.pipeline(node)
        elif self.unchecked() or self.passes(node):
            self.loose(node, self.record(node))

    def passes(self, node) -> bool:
        """The cheap pre-check: a statement that names nothing risky (after variables holding a literal
        are replaced) and runs no computed command cannot trigger a rule."""
        if self.script.downloads:
            return True
        text = self.text(node)
        if RISKY.search(text):
            return True
        if self.script.literals and "$" in text:
            literals = self.script.literals
            expanded = EXPANSION.sub(lambda m: literals.get(m.group(1) or m.group(2), m.group(0)), text)
            if RISKY.search(expanded):
                return True
        return any(
            n.type == "command_name" and n.named_children and n.named_children[0].type != "word"
            for n in descendants(node)
        )

    def loose(self, node, record: Line) -> None:
        """Words outside a command (``for f in $(curl …)``, ``case "$(…)"``): their substitutions run."""
        if node.type in SUBSTITUTIONS:
            self.substitution(node, record)
            return
        for sub in descendants(node, stop=SUBSTITUTIONS):
            if sub.type in SUBSTITUTIONS:
                self.substitution(sub, record)

    def assignments(self, node, assigns: list) -> None:
        if not self.unchecked():
            for assign in assigns:
                if assign.type == "variable_assignment":
                    self.track(assign)
        values = [a.child_by_field_name("value") for a in assigns if a.type == "variable_assignment"]
        if all(v is None or literal(self.parsed, v) is not None for v in values):
            return
        if not self.unchecked() and not self.passes(node):
            return
        record = self.record(node)
        for value in values:
            if value is not None:
                self.words(value, record)

    def declaration_is_literal(self, node) -> bool:
        """``export NAME=literal``: remembered, nothing to analyse."""
        children = node.named_children
        if not self.unchecked():
            for child in children:
                if child.type == "variable_assignment":
                    self.track(child)
        if len(children) != 1 or children[0].type != "variable_assignment":
            return False
        if self.text(node).split(None, 1)[0] not in {"local", "readonly", "export", "declare"}:
            return False
        value = children[0].child_by_field_name("value")
        return value is None or literal(self.parsed, value) is not None

    def track(self, assign) -> None:
        """Remember what an assignment stores: a literal (``a=cu``), a command's output
        (``step=$(cat steps.txt)``), the script's own folder (``here="$(cd "$(dirname "$0")" && pwd)"``)."""
        name_node, value = assign.child_by_field_name("name"), assign.child_by_field_name("value")
        if name_node is None:
            return
        name, script = self.text(name_node), self.script
        on_some_paths = conditional(assign)
        raw = self.text(value).strip() if value is not None else ""
        track_dir(name, raw.strip("'\""), script, on_some_paths)
        known = literal(self.parsed, value) if value is not None else ""
        first = name not in script.assigned
        script.assigned.add(name)
        if known is not None:
            if on_some_paths and not first and script.literals.get(name) != known:
                script.literals.pop(name, None)  # more=less or more=more: which one runs is not known
            elif len(known) <= 2_000:
                script.literals[name] = known
            return
        if on_some_paths:  # a=$OPTARG in a case branch: the literal set before may still be the value
            if output_of_command(self.text, value):
                script.generated.add(name)
            return
        script.literals.pop(name, None)
        if output_of_command(self.text, value):
            script.generated.add(name)
        else:
            script.generated.discard(name)

    def fork_bomb(self, node) -> None:
        """``:(){ :|:& };:`` — a function that pipes itself into itself."""
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is None or body is None:
            return
        called = self.text(name)
        for sub in descendants(body):
            if sub.type == "pipeline" and any(
                n.type == "command_name" and self.text(n) == called for n in descendants(sub)
            ):
                self.record(node).add("destructive", "high", "fork bomb")
                return

    # --- pipelines and commands ---------------------------------------------------------------

    def pipeline(self, node, extra=None) -> None:
        record = self.record(node)
        stages: list[_Stage] = []
        after: list = []
        self.stages(node, record, stages, after)
        if extra is not None:  # ``<<EOF | sh`` parsed apart from its command
            for child in extra.named_children:
                if child.type == "pipeline":
                    self.stages(child, record, stages, after)
        simple = [stage for stage in stages if stage.words is not None]
        has_network = any(command(stage.words)[0] in FETCHERS | NETCATS for stage in simple)
        previous: list[str] = []
        for stage in stages:
            if stage.words is None:
                if stage.writes:
                    check_writes("", [], stage.writes, record)
                previous.append(stage.name)
                continue
            analyse_command(stage.words, stage.writes, record, previous + stage.fed, has_network)
            name = command(stage.words)[0]
            previous.append("base64-decode" if is_decoder(stage.words) else name)
            if self.collected is not None:
                self.collected.append(stage.words)
            if stage.heredoc is not None and name in INTERPRETERS:
                self.heredoc_body(stage.heredoc, record)
        for node_after in after:
            self.statement(node_after)

    def stages(self, node, record: Line, stages: list[_Stage], after: list) -> None:
        self._enter()
        try:
            kind = node.type
            if kind in {"pipeline", "negated_command"}:
                for child in node.named_children:
                    if child.type != "comment":
                        self.stages(child, record, stages, after)
            elif kind == "redirected_statement":
                body = node.child_by_field_name("body")
                count = len(stages)
                if body is not None:
                    self.stages(body, record, stages, after)
                if len(stages) == count:
                    stages.append(_Stage([]))
                for child in node.named_children:
                    if child.type in _REDIRECTS:
                        self.redirect(child, record, stages, after)
            elif kind in _COMMANDS:
                stages.append(_Stage([]))
                self.command_stage(node, record, stages, after)
            else:  # a compound command or an assignment as a pipeline stage
                stages.append(_Stage(None, name=self.text(node.children[0]) if node.children else ""))
                self.statement(node)
        finally:
            self.nesting -= 1

    def command_stage(self, node, record: Line, stages: list[_Stage], after: list) -> None:
        """The words and redirections of a command, into the last stage of ``stages``."""
        stage = stages[-1]
        words = stage.words
        if node.type == "test_command":  # [ -f ~/.ssh/id_rsa ]: the operands as written
            self.loose(node, record)
            words.extend(Word(word.strip("'\"")) for word in self.text(node).split())
            return
        if node.type in {"declaration_command", "unset_command"} and node.children:
            words.append(Word(self.text(node.children[0])))
        for child in node.children:
            kind = child.type
            if kind == "variable_assignment":
                name, value = child.child_by_field_name("name"), child.child_by_field_name("value")
                left = self.text(name) if name is not None else ""
                right = self.words(value, record) if value is not None else [Word("")]
                words.append(Word(f"{left}=" + " ".join(right), tuple(s for w in right for s in w.substs)))
            elif kind == "command_name":
                for part in child.named_children[:1] or [child]:
                    words.extend(self.words(part, record))
            elif kind in _REDIRECTS:
                self.redirect(child, record, stages, after)
            elif kind in WORD_NODES or kind == "variable_name":
                words.extend(self.words(child, record))
            elif kind == "ERROR":
                for sub in descendants(child, stop=WORD_NODES):
                    if sub.type in WORD_NODES:
                        words.extend(self.words(sub, record))

    def redirect(self, node, record: Line, stages: list[_Stage], after: list) -> None:
        """A redirection of the last stage: a file written or read, a here-string, a heredoc (and what
        the grammar hangs on a heredoc's line: ``<<EOF | sh``, ``<<EOF > f && next``)."""
        stage = stages[-1]
        if node.type == "file_redirect":
            operator = "".join(
                self.text(c) for c in node.children if c.type not in {"file_descriptor", *WORD_NODES}
            )
            targets = node.children_by_field_name("destination")
            target = " ".join(self.words(targets[0], record)) if targets else ""
            if (
                operator in _WRITE_REDIRECTS
                or (operator == ">&" and not target.isdigit())
                or operator == "<>"
            ):
                stage.writes.append(target)
            elif operator == "<" and SENSITIVE_PATH.search(target):
                record.add("credential-access", "high", f"reads credential file {target}")
        elif node.type == "herestring_redirect":
            values = [w for child in node.named_children for w in self.words(child, record)]
            target = values[0] if values else Word("")
            if SENSITIVE_PATH.search(target):
                record.add("credential-access", "high", f"reads credential file {target}")
            stage.fed.extend(here_string_feed(target))
        elif node.type == "heredoc_redirect":
            stage.heredoc = node
            for index, child in enumerate(node.children):
                if child.type in _REDIRECTS:
                    self.redirect(child, record, stages, after)
                elif child.type == "pipeline" and child.children and child.children[0].type == "|":
                    self.stages(child, record, stages, after)
                elif node.field_name_for_child(index) == "right" or (
                    child.is_named
                    and child.type in _COMMANDS | _COMPOUND | {"pipeline", "redirected_statement"}
                ):
                    after.append(child)

    def heredoc_body(self, heredoc, record: Line) -> None:
        """A heredoc fed to an interpreter (``bash <<EOF``) is a script: audited as one."""
        body = next((c for c in heredoc.named_children if c.type == "heredoc_body"), None)
        if body is None:
            return
        text = self.text(body)
        text = text[:-1] if text.endswith("\n") else text
        script = self.script
        nested = Script(
            location=location_of(self.file, None), python=script.python, depth=script.depth + 1, shell=_audit
        )
        record.findings.extend(_audit(text, self.file, self.base_line + body.start_point[0], nested))

    # --- words ----------------------------------------------------------------------------------

    def words(self, node, record: Line) -> list[Word]:
        """The words a node expands to: one, or several when an unquoted variable holds a literal with
        spaces (``c="curl -s"; $c URL`` runs ``curl -s URL``)."""
        parts: list[tuple] = []
        self.parts(node, record, parts, quoted=False)
        return assemble(parts)

    def parts(self, node, record: Line, out: list[tuple], quoted: bool) -> None:
        self._enter()
        try:
            kind, text = node.type, self.text(node)
            if kind in {"word", "number"}:
                out.append(("lit", unescape(text, quoted)))
            elif kind == "string_content":
                out.append(("lit", unescape(text, True)))
            elif kind == "raw_string":
                out.append(("lit", text[1:-1]))
            elif kind == "ansi_c_string":
                out.append(("lit", ansi_c(text)))
            elif kind in {"string", "translated_string"}:
                out.append(("lit", ""))
                for child in node.children:
                    if child.is_named:
                        self.parts(child, record, out, quoted=True)
                    elif child.type not in {'"', '$"'}:
                        out.append(("lit", self.text(child)))
            elif kind in {"simple_expansion", "expansion"}:
                named = node.named_children
                name = self.text(named[0]) if len(named) == 1 and named[0].type == "variable_name" else ""
                plain = name and text in {f"${name}", f"${{{name}}}"}
                value = self.script.literals.get(name) if plain else None
                if value is None:
                    out.append(("var", text))
                else:
                    out.append(("lit" if quoted else "split", value))
            elif kind in SUBSTITUTIONS:
                out.append(("subst", text, self.substitution(node, record)))
            elif kind == "arithmetic_expansion":
                out.append(("var", text))
            elif kind in {"concatenation", "brace_expression"}:
                for child in node.children:
                    self.parts(child, record, out, quoted)
            else:
                out.append(("lit", text))
        finally:
            self.nesting -= 1

    def substitution(self, node, record: Line) -> Subst:
        """Walk ``$(…)``, a backtick or ``<(…)`` on its own; what it produces flows into its command."""
        source = self.text(node)
        inner = inside(source)
        record.substitutions += 1
        if record.substitutions > MAX_SUBSTITUTIONS:  # each one is a walk of its own: cap the work
            if record.substitutions == MAX_SUBSTITUTIONS + 1:
                record.add(
                    "unreviewable",
                    "high",
                    f"more than {MAX_SUBSTITUTIONS} command substitutions in one line: not reviewable",
                )
            return Subst(inner, source)
        collected: list[list[str]] = []
        if source.startswith("`") and "\\" in inner:  # \` inside backticks: bash reads the text again
            parsed = parse(unbacktick(inner))
            if not parsed.error:
                walk = _Walk(parsed, self.file, self.base_line, self.script, fixed=record)
                walk.collected, walk.nesting = collected, self.nesting
                walk.block(parsed.root)
        else:
            saved = self.collected
            self.collected = collected
            self.inside += 1
            try:
                for child in node.named_children:
                    self.statement(child)
            finally:
                self.collected = saved
                self.inside -= 1
        names = {command(words)[0] for words in collected}
        return Subst(
            inner,
            source,
            fetches=bool(names & FETCHERS),
            secret=bool(
                SENSITIVE_PATH.search(inner) or SECRET_VAR.search(inner) or names & {"env", "printenv"}
            ),
            decodes=any(is_decoder(words) for words in collected),
        )
