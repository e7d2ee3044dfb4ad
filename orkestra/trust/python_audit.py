"""Python script audit on the syntax tree (``ast``): exec, shells, network, secrets, deletes, writes.

Imports are resolved through their aliases (``import subprocess as sp`` → ``sp.run`` is
``subprocess.run``). A small taint pass marks variables assigned from credentials (secret
environment variables, whole-environment dumps, credential files); a network call that sends
tainted data in its body, params or URL is exfiltration (high), while a secret used only in
request headers is ordinary authentication.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

from orkestra.trust.findings import Finding, Severity, excerpt
from orkestra.trust.patterns import (
    INTERPRETERS,
    PERSISTENCE_PATH,
    SENSITIVE_PATH,
    is_outside_write_target,
)
from orkestra.trust.python_values import AUTH_KWARGS, DOWNLOADS, FETCH, IMPORTERS, SEND, Values, dotted
from orkestra.trust.regex_audit import regex_scan
from orkestra.trust.shell_audit import audit_argv, audit_shell
from orkestra.trust.shell_command import reads_code_from_stdin

_SHELL_CALLS = {
    "os.system",
    "os.popen",
    "commands.getoutput",
    "subprocess.getoutput",
    "subprocess.getstatusoutput",
    "pty.spawn",
}
_SUBPROCESS = {
    "subprocess.run",
    "subprocess.call",
    "subprocess.check_call",
    "subprocess.check_output",
    "subprocess.Popen",
    "os.execv",
    "os.execvp",
    "os.spawnv",
    "os.spawnvp",
}
_DATA_KWARGS = {"data", "json", "params", "files", "content", "body"}
_PRINTS = {"print", "sys.stdout.write", "sys.stderr.write", "pprint.pprint", "pprint.pp"}
# Loading code from a path at run time; with a download in the same script, that is running fetched code.
_LOADERS = {
    "importlib.util.spec_from_file_location",
    "importlib.machinery.SourceFileLoader",
    "importlib.machinery.SourcelessFileLoader",
    "runpy.run_path",
    "imp.load_source",
    "imp.load_compiled",
    "zipimport.zipimporter",
    "sys.path.insert",
    "sys.path.append",
    "sys.path.extend",
    "site.addsitedir",
}
_UNPICKLERS = {
    "pickle.loads",
    "pickle.load",
    "marshal.loads",
    "marshal.load",
    "dill.loads",
    "cloudpickle.loads",
}
_CODE_FILES = (".py", ".pyc", ".zip", ".whl", ".egg", ".so", ".pth", ".pyz")
_DELETE = {"shutil.rmtree": "high", "os.remove": "medium", "os.unlink": "medium", "os.rmdir": "medium"}


def audit_python(text: str, file: str, base_line: int = 1) -> list[Finding]:
    """Findings for Python source; a syntax error falls back to a shell-pattern scan of the text."""
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        line = base_line + (exc.lineno or 1) - 1
        unparsed = Finding(
            "python.unparsed", "low", file, line, "", f"does not parse ({exc.msg}); regex scan only"
        )
        return [unparsed, *(replace(f, line=f.line + base_line - 1) for f in regex_scan(text, file))]
    visitor = _Visitor(file, base_line, text.split("\n"))
    visitor.visit(tree)
    visitor.finish()
    return visitor.findings


class _Visitor(Values, ast.NodeVisitor):
    def __init__(self, file: str, base_line: int, lines: list[str]):
        super().__init__()
        self.file, self.base_line, self.lines = file, base_line, lines
        self.lists: dict[str, ast.List | ast.Tuple] = {}  # variables holding a literal argument list
        self.written: dict[str, tuple[int, str | None]] = {}  # file name -> (line, literal content or None)
        self.findings: list[Finding] = []
        self.downloads: list[ast.Call] = []  # calls that fetch from the network
        self.loaders: list[tuple[ast.Call, str]] = []  # calls that load code from a path
        self.sockets: list[ast.Call] = []  # socket connections
        self.shell_handoffs: list[tuple[ast.Call, str]] = []  # os.dup2 / pty.spawn

    def finish(self) -> None:
        """Findings that need the whole file: fetched code loaded, a socket handed to a shell."""
        if self.downloads:
            for node, callee in self.loaders:
                self.add(
                    node,
                    "remote-code",
                    "high",
                    f"{callee} loads code at run time in a script that downloads from the network",
                )
        if self.sockets and self.shell_handoffs:
            node, callee = self.shell_handoffs[0]
            self.add(node, "reverse-shell", "high", f"connects a socket and hands it to a shell ({callee})")

    # --- helpers ----------------------------------------------------------------------------

    def add(self, node: ast.AST, rule: str, severity: Severity, message: str) -> None:
        lineno = getattr(node, "lineno", 1)
        source = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
        self.findings.append(
            Finding(
                f"python.{rule}", severity, self.file, self.base_line + lineno - 1, excerpt(source), message
            )
        )

    # --- visitors ---------------------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.aliases[(alias.asname or alias.name).split(".")[0]] = (
                alias.name if alias.asname else alias.name.split(".")[0]
            )

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self.aliases[alias.asname or alias.name] = (
                f"{node.module}.{alias.name}" if node.module else alias.name
            )

    def visit_Assign(self, node: ast.Assign) -> None:
        path = self.path_literal(node.value)
        if path is not None and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.paths[node.targets[0].id] = path
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if isinstance(node.value, (ast.List, ast.Tuple)):
                self.lists[node.targets[0].id] = node.value
            else:
                self.lists.pop(node.targets[0].id, None)
            built = self.built_str(node.value)
            if built is not None:
                self.strings[node.targets[0].id] = built
            module = self.reached(node.value) if isinstance(node.value, ast.Call) else None
            if module is not None and self.name_of(node.value.func) in IMPORTERS:
                self.aliases[node.targets[0].id] = module
        if self.secret_source(node.value):
            for target in node.targets:
                self.tainted.update(_assigned_names(target))
        self.generic_visit(node)

    def visit_For(self, node: ast.For) -> None:
        if self.is_environ(node.iter):
            self.add(node, "env-dump", "medium", "iterates over the whole environment")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and SENSITIVE_PATH.search(node.value) and "\n" not in node.value:
            self.add(node, "credential-access", "high", f"refers to credential file {node.value!r}")

    def visit_BinOp(self, node: ast.BinOp) -> None:
        path = self.path_literal(node)
        if path is not None and SENSITIVE_PATH.search(path):
            self.add(node, "credential-access", "high", f"refers to credential file {path!r}")
            return  # the inner parts of this path are the same finding
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        callee = self.name_of(node.func)
        self.check_exec(node, callee)
        self.check_processes(node, callee)
        self.check_network(node, callee)
        if self.is_env_dump(node):
            self.add(node, "env-dump", "medium", "reads the whole environment")
        if callee in _PRINTS and any(self.secret_source(a) for a in node.args):
            self.add(
                node,
                "exfiltration",
                "high",
                f"{callee} puts credentials or the environment into the output the model reads back",
            )
        self.check_files(node, callee)
        self.note_whole_file(node, callee)
        self.generic_visit(node)

    def note_written(self, node: ast.Call, target: str) -> None:
        """Remember a file written here and what went into it (``write_text(x)``; ``open(...)`` unknown)."""
        content = None
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr in {"write_text", "write_bytes"}
            and node.args
        ):
            content = self.built_str(node.args[0])
        self.written[target.rsplit("/", 1)[-1]] = (node.lineno, content)

    def note_code_write(self, node: ast.Call, target: str) -> None:
        """A write to a path Python can import or run (``.py``, ``.zip``, ``.whl``, ``.so``, ``.pth``)."""
        if target.lower().endswith(_CODE_FILES):
            self.loaders.append((node, f"writing {target}"))

    def note_whole_file(self, node: ast.Call, callee: str) -> None:
        if callee in DOWNLOADS or callee in SEND:
            self.downloads.append(node)
        if callee in _UNPICKLERS and node.args and self.constant_str(node.args[0]) is None:
            self.loaders.append((node, callee))
        if callee in _LOADERS and not any(
            isinstance(n, ast.Name) and n.id == "__file__" for a in node.args for n in ast.walk(a)
        ):
            self.loaders.append((node, callee))
        if callee.endswith((".connect", ".connect_ex")) and "socket" in self.aliases.values():
            self.sockets.append(node)
        if callee == "socket.create_connection":
            self.sockets.append(node)
        if callee in {"os.dup2", "pty.spawn"}:
            self.shell_handoffs.append((node, callee))

    def check_exec(self, node: ast.Call, callee: str) -> None:
        if callee.startswith(("__builtins__.", "builtins.")):
            callee = "builtins." + callee.rsplit(".", 1)[1]  # getattr(__builtins__, "ex" + "ec")
        if callee in {"eval", "exec", "compile", "builtins.eval", "builtins.exec"} and node.args:
            literal = self.constant_str(node.args[0]) is not None
            runs = callee != "compile"  # compile() builds a code object (a syntax check); exec/eval run it
            self.add(
                node,
                "exec",
                "high" if runs and not literal else "medium",
                f"{callee}() of {'a literal' if literal else 'dynamic code'}",
            )
        elif callee in {"marshal.loads", "pickle.loads", "codecs.decode"}:
            self.add(node, "obfuscation", "medium", f"{callee}() can hide code")

    def check_processes(self, node: ast.Call, callee: str) -> None:
        shell = any(
            k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value for k in node.keywords
        )
        command = (
            node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "args"), None)
        )
        if callee in _SHELL_CALLS or (callee in _SUBPROCESS and shell):
            literal = self.constant_str(command) if command is not None else None
            if literal is None:
                self.add(node, "shell", "high", f"{callee} runs a dynamic command through the shell")
            else:
                self.add(node, "shell", "low", f"{callee} runs a fixed command through the shell")
                self.findings.extend(audit_shell_script(literal, self.file, self.base_line + node.lineno - 1))
        if isinstance(command, ast.Name) and command.id in self.lists:
            command = self.lists[command.id]  # args = ["bash", "-c", x]; subprocess.run(args)
        if (
            callee.startswith("os.exec")
            and len(node.args) >= 2
            and isinstance(node.args[1], (ast.List, ast.Tuple))
        ):
            command = node.args[1]  # os.execv(path, [argv0, ...])
        if callee in _SUBPROCESS and not shell and self.constant_str(command) is not None:
            command = ast.List(elts=[command])  # Popen("sh"): a program name alone
        if callee not in _SUBPROCESS or shell or not isinstance(command, (ast.List, ast.Tuple)):
            return
        self.check_fed_interpreter(node, command)
        words = [self.constant_str(e) or "$ARG" for e in command.elts]
        for word in words:
            written = self.written.get(word.rsplit("/", 1)[-1]) if word != "$ARG" else None
            if written is None:
                continue
            if written[1] is None:
                self.add(
                    node, "exec", "high", f"runs {word}, a file this script wrote from data built at run time"
                )
            else:
                self.findings.extend(
                    audit_shell_script(written[1], self.file, self.base_line + written[0] - 1)
                )
        source = self.lines[node.lineno - 1] if node.lineno <= len(self.lines) else ""
        self.findings.extend(
            audit_argv(words, self.file, self.base_line + node.lineno - 1, source, python=audit_python)
        )

    def check_fed_interpreter(self, node: ast.Call, command: ast.List | ast.Tuple) -> None:
        """``run(["bash"], input=code)``, ``Popen(["sh"], stdin=PIPE)``: a program writes the script a shell runs."""
        words = [self.constant_str(e) or "$ARG" for e in command.elts]
        if not words or words[0] == "$ARG":
            return
        name = words[0].rsplit("/", 1)[-1].lower()
        if name not in INTERPRETERS or not reads_code_from_stdin(name, words[1:]):
            return
        fed = {k.arg: k.value for k in node.keywords}
        given = fed.get("input")
        if (given is not None and self.constant_str(given) is None) or self.name_of(
            fed.get("stdin", ast.Constant(None))
        ) == "subprocess.PIPE":
            self.add(node, "exec", "high", f"writes a script built at run time into {name}'s input")

    def check_network(self, node: ast.Call, callee: str) -> None:
        sends = callee in SEND or (
            callee.endswith((".sendall", ".send")) and "socket" in self.aliases.values()
        )
        fetches = callee in FETCH
        if callee in {"urllib.request.urlopen", "urllib.request.Request"} and len(node.args) < 2:
            sends = any(k.arg == "data" for k in node.keywords)  # without data it is a download
            fetches = not sends
        headers = [k.value for k in node.keywords if k.arg in AUTH_KWARGS]
        if (sends or fetches) and any(self.dumps_secrets(h) for h in headers):
            self.add(
                node, "exfiltration", "high", f"{callee} puts the environment or credential files in a header"
            )
            return
        if fetches and any(
            self.secret_source(p) for p in [*node.args, *(k.value for k in node.keywords if k.arg == "url")]
        ):
            self.add(
                node,
                "exfiltration",
                "high",
                f"{callee} puts a secret or the environment in the URL it fetches",
            )
            return
        if sends:
            payload = [k.value for k in node.keywords if k.arg in _DATA_KWARGS] + list(node.args)
            if any(self.secret_source(p) for p in payload):
                self.add(node, "exfiltration", "high", f"{callee} sends credentials or the environment out")
            else:
                self.add(node, "network-send", "medium", f"{callee} sends data over the network")
        elif fetches:
            self.add(node, "remote-fetch", "medium", f"{callee} downloads from the network")

    def check_files(self, node: ast.Call, callee: str) -> None:
        if callee in _DELETE and node.args:
            target = self.path_literal(node.args[0])
            if target is not None and (is_outside_write_target(target) or target in {"~", "/", ".."}):
                self.add(node, "destructive", _DELETE[callee], f"{callee} deletes {target}")
            elif target is None and callee == "shutil.rmtree":
                self.add(node, "delete", "low", "shutil.rmtree of a computed path")
        target = None
        if callee == "open" and node.args:
            mode = (
                self.constant_str(node.args[1])
                if len(node.args) > 1
                else next((self.constant_str(k.value) for k in node.keywords if k.arg == "mode"), "r")
            )
            if mode and set(mode) & set("wax"):
                target = self.path_literal(node.args[0])
        elif isinstance(node.func, ast.Attribute) and node.func.attr in {
            "write_text",
            "write_bytes",
            "touch",
            "mkdir",
            "symlink_to",
        }:
            target = self.path_literal(node.func.value)
        elif (
            callee
            in {"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.move", "os.replace", "os.rename"}
            and len(node.args) >= 2
        ):
            target = self.path_literal(node.args[1])
        if callee == "urllib.request.urlretrieve" and len(node.args) >= 2:
            target = self.path_literal(node.args[1])
        if target is None:
            return
        self.note_code_write(node, target)
        self.note_written(node, target)
        if PERSISTENCE_PATH.search(target):
            self.add(node, "write-outside", "high", f"writes a start-up, credential or system file: {target}")
        elif is_outside_write_target(target):
            self.add(node, "write-outside", "medium", f"writes outside the skill folder: {target}")


def _assigned_names(target: ast.AST) -> set[str]:
    """What an assignment to ``target`` taints: a name, an attribute path (``self.api_key`` — not all of
    ``self``), the container of a subscript, every element of a tuple."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Attribute):
        return {dotted(target)} - {""}
    if isinstance(target, ast.Subscript):
        return _assigned_names(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        return {name for element in target.elts for name in _assigned_names(element)}
    if isinstance(target, ast.Starred):
        return _assigned_names(target.value)
    return set()


def audit_shell_script(
    text: str,
    file: str,
    base_line: int = 1,
    within: str | None = None,
    downloads: frozenset[str] = frozenset(),
) -> list[Finding]:
    """``audit_shell`` with ``python -c CODE`` audited as Python: what every caller outside these two
    modules uses (shell_audit takes the Python auditor as an argument, so it never imports this module).
    ``downloads``: names of files other files of the skill download."""
    return audit_shell(text, file, base_line, within, python=audit_python, downloads=downloads)


_RETRIEVED = re.compile(r"urlretrieve\s*\([^,()]+,\s*(?:[\w.]+\s*/\s*)?[rbf]?[\"']([^\"']+)[\"']")


def fetched_files_python(text: str) -> set[str]:
    """Names of the files a Python script saves with ``urlretrieve`` (for the skill-wide download set)."""
    return (
        {m.group(1).rsplit("/", 1)[-1] for m in _RETRIEVED.finditer(text)} if "urlretrieve" in text else set()
    )
