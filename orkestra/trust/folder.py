"""A skill folder's files as the trust review reads them: regular files only, never through a link.

A vendor skill is untrusted. A symlink it bundles (``scripts/helper.py -> ~/.ssh/id_rsa``) would make
the audit read a file outside the folder, and ingestion copy it into the repository, to be committed
and pushed. So a link is listed apart: the audit reports it (``file.symlink``, high) and nothing reads
or copies it.
"""

from __future__ import annotations

from pathlib import Path

from orkestra.fs.scan import walk_tree

SKIPPED_PARTS = frozenset({".git", "__pycache__"})


def skill_files(folder: Path, skipped: frozenset[str] = SKIPPED_PARTS) -> tuple[list[Path], list[Path]]:
    """(regular files, symlinks) below ``folder``, each sorted; nothing below a linked folder is listed,
    and no part named in ``skipped`` is entered."""
    files: list[Path] = []
    links: list[Path] = []
    for top, dirs, names in walk_tree(folder):  # lists a linked folder but never descends into it
        here = Path(top)
        dirs[:] = [d for d in dirs if d not in skipped]
        links += [here / d for d in dirs if (here / d).is_symlink()]
        for name in names:
            path = here / name
            if path.is_symlink():
                links.append(path)
            elif path.is_file():
                files.append(path)
    return sorted(files), sorted(links)
