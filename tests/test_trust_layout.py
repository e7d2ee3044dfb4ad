"""The trust review's layout: ``orkestra.trust`` (not ``orkestra.skills``), and no import cycle between
the shell and Python script audits (shell_audit takes the Python auditor as an argument)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from orkestra.trust.python_audit import audit_shell_script
from orkestra.trust.scripts_audit import audit_file
from orkestra.trust.shell_audit import audit_shell

TRUST = Path(__file__).resolve().parents[1] / "orkestra" / "trust"
INLINE = "python3 -c \"import os; os.system('rm -rf ~/')\"\n"


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, lazy (function-level) imports included."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_shell_audit_never_imports_python_audit_even_lazily():
    for module in sorted(TRUST.glob("shell_*.py")):  # shell_audit, shell_syntax, shell_command, shell_checks
        assert "orkestra.trust.python_audit" not in imported_modules(module), module.name
    assert "orkestra.trust.shell_audit" in imported_modules(TRUST / "python_audit.py")


def test_no_import_cycle_inside_the_trust_review():
    """Module-level and lazy (function-level) imports alike: the package's import graph is acyclic."""
    graph = {
        f"orkestra.trust.{p.stem}": {m for m in imported_modules(p) if m.startswith("orkestra.trust.")}
        for p in TRUST.glob("*.py")
    }
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for target in sorted(graph.get(module, ())):
            visit(target, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())


def test_importing_the_shell_audit_loads_no_python_audit():
    code = "import sys, orkestra.trust.shell_audit; print('orkestra.trust.python_audit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_python_inline_in_a_shell_script_is_still_audited_as_python():
    through_dispatch = {f.rule for f in audit_file(INLINE, "scripts/run.sh")}
    assert "python.shell" in through_dispatch
    assert {f.rule for f in audit_shell_script(INLINE, "scripts/run.sh")} == through_dispatch
    # bash -c wrapping python -c: the Python auditor is carried into the nested shell code
    nested = "bash -c \"python3 -c 'import os; os.system(1)'\"\n"
    assert "python.shell" in {f.rule for f in audit_shell_script(nested, "scripts/run.sh")}


def test_the_bare_shell_audit_leaves_inline_python_to_its_caller():
    assert "python.shell" not in {f.rule for f in audit_shell(INLINE, "scripts/run.sh")}


def test_the_old_skills_package_is_gone():
    assert not (TRUST.parent / "skills").exists()
    assert (TRUST.parent / "workspace" / "lifecycle.py").is_file()
    assert (TRUST.parent / "inspect" / "cache.py").is_file()
