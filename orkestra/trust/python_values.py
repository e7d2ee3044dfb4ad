"""What a Python expression names or holds, read on the syntax tree (``ast``) for ``python_audit``.

``Values`` resolves callees through import aliases and simple obfuscation (``getattr(os, 'env' +
'iron')``), folds strings and paths built from literals, and tells whether an expression carries
credentials (secret environment variables, the whole environment, credential files) — the taint
pass's reading of one expression. ``python_audit._Visitor`` builds on it and records what it learns
(aliases, string and path variables, tainted names) while it walks a file.
"""

from __future__ import annotations

import ast
import re

from orkestra.trust.patterns import SECRET_NAME, SENSITIVE_PATH

SEND = {
    "requests.post",
    "requests.put",
    "requests.patch",
    "requests.request",
    "httpx.post",
    "httpx.put",
    "httpx.patch",
    "httpx.request",
    "urllib.request.urlopen",
    "urllib.request.Request",
    "http.client.HTTPConnection",
    "http.client.HTTPSConnection",
    "smtplib.SMTP",
    "smtplib.SMTP_SSL",
    "ftplib.FTP",
    "aiohttp.ClientSession",
    "socket.create_connection",
}
FETCH = {"requests.get", "httpx.get", "urllib.request.urlretrieve", "requests.head"}
_ENV_DUMP_METHODS = {"items", "keys", "values", "copy"}
IMPORTERS = {"__import__", "importlib.import_module", "builtins.__import__"}
MAX_BUILT = 10_000  # longest string the audit folds from pieces
DOWNLOADS = FETCH | {
    "urllib.request.urlopen",
    "httpx.stream",
    "requests.request",
    "httpx.Client",
    "requests.Session",
}
# Arguments that authenticate a request, and calls whose value says nothing of their argument's content:
# a secret there is used, not disclosed (``headers={"Authorization": f"Bearer {token}"}``, ``len(os.environ)``).
AUTH_KWARGS = {"headers", "auth", "cookies", "cert", "params"}  # params: an API key as a query parameter
_CLIENT_CALL = re.compile(
    r"(?:^|\.)(?:session|client|http|conn)\w*\.(?:get|post|put|patch|delete|request|send)$", re.I
)
_NAME_CALLS = {"set", "list", "sorted", "tuple", "frozenset"}  # of os.environ: the variable names
_OPAQUE_CALLS = {"len", "bool", "isinstance", "hasattr", "callable", "id", "type"}


class Values:
    """Import aliases, variables holding strings or paths, and tainted names, with what they resolve to."""

    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}
        self.tainted: set[str] = set()
        self.paths: dict[str, str] = {}  # variables holding a known path: home = expanduser("~")
        self.strings: dict[str, str] = {}  # variables holding a string built from literals

    def name_of(self, node: ast.AST) -> str:
        """Dotted name of a callee with import aliases resolved (``sp.run`` → ``subprocess.run``).

        Simple obfuscation is followed: ``getattr(os, 'env' + 'iron')``, ``vars(os)['environ']``,
        ``os.__dict__['environ']`` and ``__import__('o' + 's')`` name what they reach.
        """
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id, node.id)
        if isinstance(node, ast.Attribute):
            base = self.name_of(node.value)
            return f"{base}.{node.attr}" if base else node.attr
        if isinstance(node, ast.Call):
            reached = self.reached(node)
            return reached if reached is not None else self.name_of(node.func)
        if isinstance(node, ast.Subscript):
            key = self.built_str(node.slice)
            owner = node.value
            if (
                key is not None
                and isinstance(owner, ast.Call)
                and self.name_of(owner.func) == "vars"
                and owner.args
            ):
                return f"{self.name_of(owner.args[0])}.{key}"
            if key is not None and isinstance(owner, ast.Attribute) and owner.attr == "__dict__":
                return f"{self.name_of(owner.value)}.{key}"
        return ""

    def reached(self, node: ast.Call) -> str | None:
        """What ``getattr(x, name)`` or ``__import__(name)`` evaluates to, when ``name`` is known."""
        callee = self.name_of(node.func)
        if callee in {"getattr", "builtins.getattr"} and len(node.args) >= 2:
            attr = self.built_str(node.args[1])
            return f"{self.name_of(node.args[0])}.{attr}" if attr is not None else None
        if callee in IMPORTERS and node.args:
            return self.built_str(node.args[0])
        return None

    def built_str(self, node: ast.AST | None) -> str | None:
        """A string built from literals: ``'a' + 'b'``, ``''.join([...])``, ``'%s%s' % (...)``, f-strings,
        ``'ab'[::-1]``, ``chr(101)``, ``.lower()``/``.upper()`` and variables assigned one."""
        value = self._fold(node, 0)
        return value if isinstance(value, str) and len(value) <= MAX_BUILT else None

    def _fold(self, node: ast.AST | None, depth: int) -> object:
        if node is None or depth > 20:
            return None
        fold = lambda child: self._fold(child, depth + 1)  # noqa: E731
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, int)):
            return node.value
        if isinstance(node, ast.Name):
            return self.strings.get(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            value = fold(node.operand)
            return -value if isinstance(value, int) else None
        if isinstance(node, ast.BinOp):
            left, right = fold(node.left), fold(node.right)
            if isinstance(node.op, ast.Add) and isinstance(left, str) and isinstance(right, str):
                return left + right if len(left) + len(right) <= MAX_BUILT else None
            if isinstance(node.op, ast.Mod) and isinstance(left, str):
                items = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
                values = [fold(e) for e in items]
                if all(isinstance(v, (str, int)) for v in values):
                    try:
                        return left % tuple(values)
                    except (TypeError, ValueError):
                        return None
            return None
        if isinstance(node, ast.JoinedStr):
            parts = [fold(v.value) if isinstance(v, ast.FormattedValue) else fold(v) for v in node.values]
            return "".join(str(p) for p in parts) if all(isinstance(p, (str, int)) for p in parts) else None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            base = fold(node.value)
            parts = (node.slice.lower, node.slice.upper, node.slice.step)
            bounds = [fold(b) if b is not None else None for b in parts]
            known = all(b is None or isinstance(v, int) for b, v in zip(parts, bounds))
            if isinstance(base, str) and known and bounds[2] != 0:
                return base[slice(*bounds)]
            return None
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "join" and len(node.args) == 1:
                sep, items = fold(func.value), node.args[0]
                if isinstance(sep, str) and isinstance(items, (ast.List, ast.Tuple)):
                    values = [fold(e) for e in items.elts]
                    return sep.join(values) if all(isinstance(v, str) for v in values) else None
            if isinstance(func, ast.Attribute) and func.attr in {"lower", "upper", "strip"} and not node.args:
                base = fold(func.value)
                return getattr(base, func.attr)() if isinstance(base, str) else None
            if isinstance(func, ast.Name) and func.id == "chr" and len(node.args) == 1:
                code = fold(node.args[0])
                return chr(code) if isinstance(code, int) and 0 <= code < 0x110000 else None
            if isinstance(func, ast.Name) and func.id == "str" and len(node.args) == 1:
                return fold(node.args[0])
        return None

    def is_environ(self, node: ast.AST) -> bool:
        return self.name_of(node) == "os.environ"

    def secret_source(self, node: ast.AST) -> bool:
        """Whether an expression reads credentials: secret env vars, the whole env, credential files."""
        accessed = set()  # environ nodes read one key at a time (os.environ["HOME"], os.environ.get(...))
        for sub in self._data_nodes(node):  # breadth first: a parent is seen before its children
            if isinstance(sub, (ast.Subscript, ast.Attribute)):
                accessed.add(id(sub.value))
            if id(sub) not in accessed and self._maybe_environ(sub) and self.is_environ(sub):
                return True  # the whole environment: passed on, unpacked ({**os.environ}) or copied
            if (isinstance(sub, ast.Name) and sub.id in self.tainted) or (
                isinstance(sub, ast.Attribute) and self.tainted and dotted(sub) in self.tainted
            ):
                return True
            if SENSITIVE_PATH.search(self.constant_str(sub) or ""):
                return True
            if isinstance(sub, ast.BinOp) and SENSITIVE_PATH.search(self.path_literal(sub) or ""):
                return True
            if isinstance(sub, ast.Subscript) and self.is_environ(sub.value):
                key = sub.slice
                if not (
                    isinstance(key, ast.Constant) and isinstance(key.value, str)
                ) or SECRET_NAME.fullmatch(key.value):
                    return True
            if isinstance(sub, ast.Call):
                callee = self.name_of(sub.func)
                if callee in {"os.getenv", "os.environ.get"} and sub.args:
                    key = sub.args[0]
                    if (
                        isinstance(key, ast.Constant)
                        and isinstance(key.value, str)
                        and SECRET_NAME.fullmatch(key.value)
                    ):
                        return True
                if self.is_env_dump(sub) and callee != "os.environ.keys":  # names, not values
                    return True
            if isinstance(sub, ast.Name) and self.is_environ(sub) and sub is node:
                return True
        return False

    def _data_nodes(self, node: ast.AST):
        """``ast.walk`` (breadth first) without the parts that cannot carry a value out: authentication
        arguments of a call, the container of a membership test (``name in os.environ``) and the argument
        of ``len``/``bool``-like calls."""
        queue = [node]
        while queue:
            current = queue.pop(0)
            yield current
            if isinstance(current, ast.Call):
                callee = self.name_of(current.func)
                if callee in SEND or callee in DOWNLOADS or _CLIENT_CALL.search(callee):
                    continue  # a response: what the request carried is judged where it is sent
                if (
                    callee in _OPAQUE_CALLS
                    or (callee in _NAME_CALLS and len(current.args) == 1 and self.is_environ(current.args[0]))
                    or callee == "os.environ.keys"
                ):
                    continue  # len(os.environ), set(os.environ), os.environ.keys(): sizes and names
                queue.append(current.func)
                queue.extend(current.args)
                queue.extend(k.value for k in current.keywords if k.arg not in AUTH_KWARGS)
            elif isinstance(current, ast.Compare):
                queue.append(current.left)
                queue.extend(
                    c
                    for op, c in zip(current.ops, current.comparators)
                    if not isinstance(op, (ast.In, ast.NotIn))
                )
            else:
                queue.extend(ast.iter_child_nodes(current))

    def dumps_secrets(self, node: ast.AST) -> bool:
        """The whole environment or a credential file inside ``node`` (more than one token for a header)."""
        for sub in ast.walk(node):
            if (
                isinstance(sub, ast.Call)
                and self.is_env_dump(sub)
                and self.name_of(sub.func) != "os.environ.keys"
            ):
                return True
            if SENSITIVE_PATH.search(self.constant_str(sub) or ""):
                return True
        return False

    @staticmethod
    def _maybe_environ(node: ast.AST) -> bool:
        """Cheap pre-check: node shapes that can name ``os.environ`` (attribute, alias, getattr, vars()[...])."""
        if isinstance(node, ast.Attribute):
            return node.attr == "environ"
        if isinstance(node, ast.Name):
            return True
        if isinstance(node, ast.Call):
            return isinstance(node.func, ast.Name) and node.func.id in {"getattr", "__import__"}
        return isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Call, ast.Attribute))

    def is_env_dump(self, node: ast.Call) -> bool:
        callee = self.name_of(node.func)
        if callee.startswith("os.environ.") and callee.rsplit(".", 1)[1] in _ENV_DUMP_METHODS:
            return True
        return callee in {"json.dumps", "dict", "str", "repr", "print"} and any(
            self.is_environ(a) for a in node.args
        )

    def constant_str(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        return None

    def path_literal(self, node: ast.AST) -> str | None:
        """A literal path, including ``expanduser("~/x")``, ``Path.home() / "x"``, ``Path("x")`` and variables
        assigned one; an unknown part below a known base becomes ``*`` (``join(home, d)`` → ``~/*``)."""
        text = self.constant_str(node)
        if text is not None:
            return text
        if isinstance(node, ast.Name):
            return self.paths.get(node.id)
        if isinstance(node, ast.Call):
            callee = self.name_of(node.func)
            if (
                callee in {"os.path.expanduser", "pathlib.Path", "Path", "pathlib.Path.expanduser"}
                and node.args
            ):
                return self.path_literal(node.args[0])
            if callee.endswith("Path.home") or callee == "pathlib.Path.home":
                return "~"
            if callee.endswith(".expanduser") and isinstance(node.func, ast.Attribute):
                return self.path_literal(node.func.value)
            if callee == "os.path.join" and node.args:
                parts = [self.path_literal(a) for a in node.args]
                return None if parts[0] is None else "/".join(p if p is not None else "*" for p in parts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            left, right = self.path_literal(node.left), self.path_literal(node.right)
            if left is not None:
                return f"{left.rstrip('/')}/{right if right is not None else '*'}"
        return None


def dotted(node: ast.AST) -> str:
    """``self.api_key`` for an attribute chain of names, "" for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""
