"""JavaScript / TypeScript calls that run code, read on the syntax tree (tree-sitter, shipped with the
project's ``tree-sitter-language-pack``): which name is bound to ``child_process`` or ``vm``, however
it was imported or renamed, and whether the command or code a call runs is a literal.

``const {execSync: run} = require("node:child_process"); run(cmd)`` is ``child_process.execSync`` of a
computed command: high. A literal command is audited as shell; ``eval``, ``new Function`` and ``vm``
of computed code are high. The regex pass (``regex_audit``) still runs for everything else.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import PurePosixPath

from orkestra.trust.findings import Finding, excerpt

_MODULES = {"child_process", "node:child_process", "vm", "node:vm"}
_SHELL_RUNNERS = {"exec", "execSync"}  # run a string through /bin/sh
_ARGV_RUNNERS = {"spawn", "spawnSync", "execFile", "execFileSync", "fork"}
_CODE_RUNNERS = {"runInNewContext", "runInThisContext", "runInContext", "compileFunction", "Script"}
_SHELLS = {
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "/bin/sh",
    "/bin/bash",
    "/usr/bin/bash",
    "/bin/zsh",
    "cmd",
    "cmd.exe",
}
MAX_NODES = 500_000


@lru_cache(maxsize=4)
def _parser(language: str):
    try:
        from tree_sitter_language_pack import get_parser

        return get_parser(language)
    except Exception:  # noqa: BLE001 — a missing grammar leaves the regex pass alone, never a crash
        return None


def dialect_of(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    return {".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx"}.get(
        suffix, "javascript"
    )


def audit_js(text: str, file: str, shell=None) -> list[Finding]:
    """High findings for code a JS/TS file runs from computed strings; ``shell`` audits literal commands."""
    if not any(word in text for word in ("child_process", "eval", "Function", "vm")):
        return []
    parser = _parser(dialect_of(file))
    if parser is None:
        return []
    source = text.encode("utf-8", errors="replace")
    root = parser.parse(source).root_node
    nodes = _nodes(root)
    lines = text.split("\n")
    bound = _bindings(nodes, source)
    findings: list[Finding] = []

    def add(node, message: str) -> None:
        line = node.start_point[0] + 1
        findings.append(
            Finding(
                "js.exec", "high", file, line, excerpt(lines[line - 1] if line <= len(lines) else ""), message
            )
        )

    for node in nodes:
        if node.type not in {"call_expression", "new_expression"}:
            continue
        callee = node.child_by_field_name("function") or node.child_by_field_name("constructor")
        args = node.child_by_field_name("arguments")
        if callee is None:
            continue
        name = _resolve(callee, source, bound)
        values = [a for a in args.named_children if a.type != "comment"] if args is not None else []
        first = values[0] if values else None
        module, _, function = name.rpartition(".")
        if module == "child_process" and function in _SHELL_RUNNERS and first is not None:
            if _literal(first, source) is None:
                add(node, f"child_process.{function} runs a command built at run time")
            elif shell is not None:
                findings.extend(shell(_literal(first, source), file, node.start_point[0] + 1))
        elif module == "child_process" and function in _ARGV_RUNNERS and first is not None:
            program = _literal(first, source)
            argv = values[1] if len(values) > 1 and values[1].type == "array" else None
            words = [_literal(w, source) for w in argv.named_children] if argv is not None else []
            if (
                program is not None
                and program.rsplit("/", 1)[-1] in _SHELLS
                and words[:1] in (["-c"], ["/c"])
            ):
                code = words[1] if len(words) > 1 else None
                if code is None:
                    add(node, f"child_process.{function} runs {program} -c with a command built at run time")
                elif shell is not None:
                    findings.extend(shell(code, file, node.start_point[0] + 1))
            elif program is None and _has_shell_option(values, source):
                add(node, f"child_process.{function} runs a computed command through a shell")
        elif (
            name in {"eval", "Function", "globalThis.eval", "window.eval"}
            or (module == "vm" and function in _CODE_RUNNERS)
        ) and (first is not None and _literal(first, source) is None):
            add(node, f"{name} evaluates code built at run time")
    return findings


def _nodes(root) -> list:
    found, stack = [], [root]
    while stack and len(found) < MAX_NODES:
        node = stack.pop()
        found.append(node)
        stack.extend(reversed(node.children))
    return found


def _text(node, source: bytes) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _literal(node, source: bytes) -> str | None:
    """The value of a string literal or a template without substitutions; None for anything computed."""
    if node.type == "string":
        return _text(node, source)[1:-1]
    if node.type == "template_string" and not any(c.type == "template_substitution" for c in node.children):
        return _text(node, source)[1:-1]
    return None


def _module_of(node, source: bytes) -> str | None:
    """``require("child_process")`` / ``await import("vm")`` → the module name, normalised."""
    while node is not None and node.type in {"await_expression", "parenthesized_expression"}:
        node = node.named_children[0] if node.named_children else None
    if node is None or node.type != "call_expression":
        return None
    callee = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if (
        callee is None
        or _text(callee, source) not in {"require", "import"}
        or args is None
        or not args.named_children
    ):
        return None
    name = _literal(args.named_children[0], source)
    return name.removeprefix("node:") if name in _MODULES else None


def _bindings(nodes: list, source: bytes) -> dict[str, str]:
    """Local names bound to the modules or their functions: ``cp`` → ``child_process``,
    ``run`` → ``child_process.execSync``."""
    bound: dict[str, str] = {}
    for node in nodes:
        if node.type == "variable_declarator":
            target, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            module = _module_of(value, source) if value is not None else None
            if module is None or target is None:
                continue
            if target.type == "identifier":
                bound[_text(target, source)] = module
            elif target.type == "object_pattern":
                for part in target.named_children:
                    if part.type == "shorthand_property_identifier_pattern":
                        bound[_text(part, source)] = f"{module}.{_text(part, source)}"
                    elif part.type == "pair_pattern":
                        key, alias = part.child_by_field_name("key"), part.child_by_field_name("value")
                        if key is not None and alias is not None:
                            bound[_text(alias, source)] = f"{module}.{_text(key, source)}"
        elif node.type == "import_statement":
            origin = node.child_by_field_name("source")
            name = _literal(origin, source) if origin is not None else None
            if name not in _MODULES:
                continue
            module = name.removeprefix("node:")
            for sub in _nodes(node):
                if sub.type == "import_specifier":
                    imported, alias = sub.child_by_field_name("name"), sub.child_by_field_name("alias")
                    local = alias or imported
                    if imported is not None:
                        bound[_text(local, source)] = f"{module}.{_text(imported, source)}"
                elif sub.type == "namespace_import" and sub.named_children:
                    bound[_text(sub.named_children[-1], source)] = module
                elif sub.type == "import_clause":
                    default = next((c for c in sub.named_children if c.type == "identifier"), None)
                    if default is not None:
                        bound[_text(default, source)] = module
    return bound


def _resolve(callee, source: bytes, bound: dict[str, str], depth: int = 0) -> str:
    """The dotted name a callee reaches, through the bindings (``cp.exec`` → ``child_process.exec``)."""
    if depth > 50:  # a.b.c.… thousands deep: not a module call anyone needs resolved
        return ""
    if callee.type == "identifier":
        name = _text(callee, source)
        return bound.get(name, name)
    if callee.type == "member_expression":
        owner, prop = callee.child_by_field_name("object"), callee.child_by_field_name("property")
        if owner is None or prop is None:
            return _text(callee, source)
        module = _module_of(owner, source)
        base = module or _resolve(owner, source, bound, depth + 1)
        return f"{base}.{_text(prop, source)}"
    if callee.type == "subscript_expression":  # cp["exec" + "Sync"] stays unresolved but not hidden
        owner, index = callee.child_by_field_name("object"), callee.child_by_field_name("index")
        key = _literal(index, source) if index is not None else None
        if owner is not None and key is not None:
            return f"{_resolve(owner, source, bound, depth + 1)}.{key}"
    return _text(callee, source)


def _has_shell_option(values: list, source: bytes) -> bool:
    return any(
        v.type == "object" and "shell" in _text(v, source) and "true" in _text(v, source) for v in values
    )
