"""Repository content that used to end in a traceback or a hang: folders nested 1,100 deep, paths longer
than PATH_MAX, FIFOs where files are expected, wrong-typed vendor metadata and project manifests.

Python 3.11's ``os.walk`` and ``Path.rglob`` recurse once per folder level; every walk now goes through
``orkestra.fs.scan.walk_tree`` (Maguyva's scanner has its own, in ``maguyva.index.scan``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git
from ork_workspace import workspace

from orkestra.project_info import read_manifest

SKILL_DIR = "registries/skills/stacks/maguyva-quickstart"


def run(root: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(
            [sys.executable, "-m", "orkestra", *args],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`orkestra {' '.join(args)}` hangs")


def clean(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    assert "RecursionError" not in result.stderr, result.stderr[-3000:]
    assert "File name too long" not in result.stderr, result.stderr[-3000:]
    return result


def nest(base: Path, depth: int, name: str, leaf: str, content: str) -> None:
    """``base/name/name/…/leaf`` ``depth`` folders deep, made relative to each folder in turn (the full
    path may be longer than the system lets anyone open at once)."""
    base.mkdir(parents=True, exist_ok=True)
    fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir(name, dir_fd=fd)
            child = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
        out = os.open(leaf, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out, content.encode())
        os.close(out)
    finally:
        os.close(fd)


_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


def remove_tree(top: Path) -> None:
    """Delete ``top`` however deep or long its paths, holding two descriptors at a time (pytest's own
    clean-up of old temp folders recurses, and would fail on these trees in a later run)."""
    try:
        fd = os.open(top, _DIR)
    except OSError:
        return
    names: list[str] = []
    while True:
        with os.scandir(fd) as entries:
            listed = list(entries)
        sub = next((e.name for e in listed if e.is_dir(follow_symlinks=False)), None)
        if sub is not None:
            child = os.open(sub, _DIR, dir_fd=fd)
            os.close(fd)
            fd, names = child, [*names, sub]
            continue
        for entry in listed:
            os.unlink(entry.name, dir_fd=fd)
        if not names:
            break
        parent = os.open("..", _DIR, dir_fd=fd)
        os.close(fd)
        os.rmdir(names.pop(), dir_fd=parent)
        fd = parent
    os.close(fd)
    os.rmdir(top)


@pytest.fixture(autouse=True)
def _remove_deep_trees(tmp_path: Path):
    yield
    remove_tree(tmp_path)


# --- 1,100 nested folders ------------------------------------------------------------------------


def test_folders_nested_1100_deep_are_walked_without_a_recursion_error(tmp_path: Path):
    """Before: `validate`, `code index` and `skills audit` ended in a RecursionError traceback."""
    root = workspace(tmp_path)
    nest(root / "src", 1100, "d", "deep.py", "def deep():\n    return 1\n")
    nest(root / SKILL_DIR / "references", 1100, "d", "note.md", "a note\n")
    git(root, "add", "-A")  # git-listed paths take the index's other route (`_safe_dir`)
    git(root, "commit", "-qm", "deep")
    assert clean(run(root, "validate")).returncode == 0
    indexed = clean(run(root, "code", "index", "--format", "json"))
    assert indexed.returncode == 0, indexed.stderr[-2000:]
    assert clean(run(root, "skills", "audit", "registries/skills")).returncode == 0
    clean(run(root, "import", "--dry-run"))
    synced = clean(run(root, "sync"))  # a rendered copy 1,100 folders deep is refused, by name
    assert synced.returncode == 1
    assert "folders deep" in synced.stderr


def test_the_walker_and_the_write_guard_need_no_recursion(tmp_path: Path):
    """The same depth through the library, with the interpreter's recursion limit lowered to 200."""
    from orkestra.fs.guard import SafeTree
    from orkestra.fs.links import Containment
    from orkestra.fs.scan import tree_paths

    nest(tmp_path, 600, "d", "f.txt", "x")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        assert len(tree_paths(tmp_path, "f.txt")) == 1
        deep = "/".join(["d"] * 250)
        assert Containment(tmp_path).problem(f"{deep}/f.txt") is None
        with SafeTree(tmp_path) as tree:
            tree.write(f"{deep}/new.txt", b"y")
    finally:
        sys.setrecursionlimit(limit)
    assert (tmp_path / deep / "new.txt").read_bytes() == b"y"


# --- paths longer than PATH_MAX ------------------------------------------------------------------


def test_paths_longer_than_path_max_are_left_out_not_a_traceback(tmp_path: Path):
    """20 folders of 250 characters: 5,000+ bytes, past Linux's 4,096. Before: `sync` and `skills audit`
    raised `OSError: File name too long`, `import` too."""
    root = workspace(tmp_path)
    long = "n" * 250
    nest(root / "src", 20, long, "deep.py", "x = 1\n")
    nest(root / SKILL_DIR / "references", 20, long, "ref.md", "a note\n")
    nest(root / ".claude/agents", 20, long, "x.md", "---\nname: x\n---\nhi\n")
    assert clean(run(root, "validate")).returncode == 0
    assert clean(run(root, "sync")).returncode == 0
    assert clean(run(root, "code", "index")).returncode == 0
    assert clean(run(root, "skills", "audit", "registries/skills")).returncode == 0
    clean(run(root, "import", "--dry-run"))


def test_init_on_a_tree_deeper_than_path_max(git_repo: Path):
    nest(git_repo / "src", 20, "n" * 250, "deep.py", "x = 1\n")
    assert clean(run(git_repo, "init")).returncode == 0
    assert clean(run(git_repo, "validate")).returncode == 0


# --- FIFOs ---------------------------------------------------------------------------------------


def test_a_fifo_for_a_skill_md_is_a_located_error_not_a_hang(tmp_path: Path):
    root = workspace(tmp_path)
    (root / SKILL_DIR / "SKILL.md").unlink()
    os.mkfifo(root / SKILL_DIR / "SKILL.md")
    (root / SKILL_DIR / "references").mkdir(exist_ok=True)
    os.mkfifo(root / SKILL_DIR / "references/pipe.md")
    result = clean(run(root, "validate", timeout=60))
    assert result.returncode == 1
    assert f"{SKILL_DIR}/SKILL.md:1:1: cannot read: not a regular file" in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("path", "in_git"),
    [
        ("sub/.gitignore", False),  # before: the scanner's own ignore reader blocked on it
        (".gitignore", False),
        ("sub/.maguyvaignore", False),
        ("sub/.maguyvaignore", True),
        ("package.json", True),
        ("pyproject.toml", True),
        ("Cargo.toml", True),
        (".github/workflows/ci.yml", True),
    ],
)
def test_a_fifo_for_a_project_or_ignore_file_does_not_hang_init(tmp_path: Path, path: str, in_git: bool):
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    (root / "sub/app.py").write_text("print(1)\n")
    if in_git:
        git(root, "init", "-q", "-b", "main")
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(root / path)
    result = clean(run(root, "init", timeout=60))
    assert result.returncode == 0, result.stderr[-2000:]
    assert (root / "orkestra.yaml").is_file()


# --- vendor metadata of the wrong type ------------------------------------------------------------

VENDOR = "vendor/acme-skills/deploy-preview/SKILL.md"


@pytest.mark.parametrize("value", ["5", "5.5", "true", "-1.5e+9"])
def test_vendor_metadata_tags_that_are_not_text_are_a_located_error(tmp_path: Path, value: str):
    """Before: `metadata.tags: 5` raised AttributeError ('int' object has no attribute 'split') in every
    command that loads the workspace; `skills evaluate` and `skills ingest` raised TypeError."""
    root = workspace(tmp_path)
    (root / VENDOR).write_text(
        f"---\nname: deploy-preview\ndescription: Deploy. Use when a preview is needed.\n"
        f"allowed-tools: {value}\nmetadata:\n  tier: K3\n  tags: {value}\n---\n# Deploy\n"
    )
    result = clean(run(root, "validate", "--format", "json"))
    assert result.returncode == 1
    hits = [d for d in json.loads(result.stdout)["diagnostics"] if d["path"] == VENDOR]
    assert any(d["field"] == "metadata.tags" and d["line"] == 7 for d in hits), hits
    skill = str(Path(VENDOR).parent)
    assert clean(run(root, "skills", "evaluate", skill)).returncode in (0, 1)
    assert clean(run(root, "skills", "audit", skill)).returncode in (0, 1)
    clean(run(root, "skills", "ingest", skill, "--tier", "K3", "--scope", "security", "--dry-run"))


# --- project manifests init reads ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("package.json", '{"name": ' + "[" * 100_000 + "]" * 100_000 + "}"),
        ("package.json", '{"name": "ok", "scripts": ' + "[" * 50_000 + "]" * 50_000 + "}"),
        ("package.json", '{"name": {"first": 1}, "author": 5}'),
        ("Cargo.toml", "package = [1, 2]\n"),
        ("Cargo.toml", '[package]\nname = "c"\nauthors = "me"\n'),
        ("pyproject.toml", "project = [1]\ntool = 5\n"),
        ("pyproject.toml", '[project]\nname = "p"\nauthors = 7\n'),
        ("pyproject.toml", '[tool]\npoetry = "x"\n'),
    ],
)
def test_a_deep_or_wrong_typed_manifest_is_passed_over(tmp_path: Path, name: str, text: str):
    (tmp_path / name).write_text(text)
    info = read_manifest(tmp_path)  # before: RecursionError, TypeError or AttributeError
    assert isinstance(info.name, str)
    assert info.name


def test_init_with_lone_surrogates_in_package_json(git_repo: Path):
    """Before: `"name": "x\\ud800y"` parsed, then writing orkestra.yaml raised UnicodeEncodeError."""
    (git_repo / "package.json").write_text(
        '{"name": "web\\ud800app", "description": "\\udcff desc", "version": "1.0\\ud801",'
        ' "author": {"name": "A\\udfffB"}, "scripts": {"test": "jest"}}'
    )
    result = clean(run(git_repo, "init"))
    assert result.returncode == 0, result.stderr[-2000:]
    config = (git_repo / "orkestra.yaml").read_bytes().decode("utf-8")  # valid UTF-8
    assert "web\ufffdapp" in config
    assert clean(run(git_repo, "validate")).returncode == 0


@pytest.mark.parametrize(
    ("path", "words"),
    [
        (".claude/settings.json", "not valid JSON (JSON nested too deeply"),
        (".claude/.orkestra-manifest.json", "unreadable manifest (JSON nested too deeply"),
    ],
)
def test_deeply_nested_json_the_sync_reads_is_a_named_error(tmp_path: Path, path: str, words: str):
    """Before: `json.loads` raised RecursionError out of `sync` (and `system status`) on 100,000 brackets.
    Every JSON read of repository content goes through ``orkestra.workspace.jsontext.loads``."""
    root = workspace(tmp_path)
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = clean(run(root, "sync"))
    assert result.returncode == 1, result.stderr[-2000:]
    assert f"{path}: {words}" in result.stderr, result.stderr[-2000:]
    clean(run(root, "system", "status"))


def test_a_lone_surrogate_in_settings_json_is_a_named_error(tmp_path: Path):
    """Before: `"\\ud800"` parsed, then writing the merged settings raised UnicodeEncodeError."""
    root = workspace(tmp_path)
    path = ".claude/settings.json"
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text('{"env": {"X": "\\ud800"}, "ok": "\\ud83d\\ude00"}')
    words = "not valid JSON (a lone surrogate"
    result = clean(run(root, "sync"))
    assert result.returncode == 1, result.stderr[-2000:]
    assert f"{path}: {words}" in result.stderr, result.stderr[-2000:]
    clean(run(root, "system", "status"))
