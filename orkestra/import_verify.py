"""``orkestra import``'s check before anything is written: the planned registries are rendered in a
scratch copy of the workspace and each original is compared with its rendering (``frontmatter.compare``)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from orkestra.errors import OrkestraError
from orkestra.frontmatter import compare
from orkestra.fs.links import read_regular
from orkestra.fs.scan import walk_tree
from orkestra.import_plan import ImportPlan
from orkestra.workspace.config import CONFIG_FILE, config_from_document, load_config
from orkestra.workspace.source import parse_yaml


def verify(root: Path, plan: ImportPlan) -> None:
    """Render the planned registries in a scratch copy; compare each original with its rendering."""
    from orkestra.render.outputs import render_outputs
    from orkestra.workspace.load import Workspace

    if not plan.items:
        return
    written = plan.writes.get(CONFIG_FILE)
    config = (
        config_from_document(parse_yaml(written.decode("utf-8"), CONFIG_FILE))
        if written is not None
        else load_config(root)
    )
    with tempfile.TemporaryDirectory(prefix="orkestra-import-") as scratch:
        base = Path(scratch)
        for rel in (CONFIG_FILE, config.paths.registries, config.paths.templates):
            source = root / rel
            if source.is_dir() and not source.is_symlink():
                _copy_tree(source, base / rel)
            elif source.is_file():
                shutil.copy2(source, base / rel)
        for rel, data in plan.writes.items():
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / rel).write_bytes(data)
        ws = Workspace.load(base)
        errors = [d for d in ws.diagnostics if d.severity == "error"]
        if errors:
            raise OrkestraError(
                "the imported registries do not load:\n" + "\n".join(str(d) for d in errors[:20])
            )
        rendered = {o.path: o.content for o in render_outputs(ws)}
    for item in plan.items:
        original = plan.originals[item.source]
        item.round_trip = compare(original, rendered.get(item.output))
        if item.round_trip == "differs" and not item.note:
            item.note = (
                "sync will report it as not owned; compare, then `orkestra sync --force` to take it over"
            )


def _copy_tree(source: Path, dest: Path) -> None:
    """``shutil.copytree(source, dest, symlinks=True)`` without recursion (any depth); what cannot be
    copied (a path too long for the scratch folder, a FIFO) is left out of the scratch copy."""
    for current, dirs, files in walk_tree(source):
        here = dest / Path(current).relative_to(source)
        try:
            here.mkdir(parents=True, exist_ok=True)
        except OSError:
            dirs[:] = []
            continue
        for name in [*dirs, *files]:
            path = Path(current, name)
            try:
                if path.is_symlink():
                    (here / name).symlink_to(os.readlink(path))
                elif name in files:
                    (here / name).write_bytes(read_regular(path, follow=False))
            except OSError:
                continue
