"""Every path the catalog depends on, so that the load cache is never stale.

Sources the loader read, every file and folder below the registries, vendor roots,
decisions, domains, templates and state folders (a new file changes its folder's mtime),
every project folder (a new ``ground_truths.yaml`` or package can appear anywhere), evidence
paths and agents' context files (validation reports them missing), the sync manifest and
every output it owns (the sync status compares exactly those), and the packaged templates
and modules that the sync inputs digest covers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from orkestra.errors import OrkestraError
from orkestra.inspect.cache import Watch, project_dirs, tree

if TYPE_CHECKING:
    from orkestra.workspace import Workspace


def catalog_watch(ws: Workspace, cache_folder: str) -> Watch:
    """The watch list of a catalog built from ``ws``; ``cache_folder`` itself is left out."""
    from orkestra.render.inputs import PACKAGE_DIR, PACKAGED_TEMPLATES, SHAPING_MODULES
    from orkestra.render.manifest import manifest_path, read_manifest

    paths = ws.config.paths
    files = [*ws.source_files, paths.mcp_config, paths.decisions_digest, manifest_path(ws.config)]
    dirs = [rel for rel, _, _ in project_dirs(ws.root, ws.config.exclude)]
    roots = [
        paths.registries,
        paths.decisions,
        paths.domains,
        paths.templates,
        paths.state,
        *(vendor.path for vendor in ws.metadata.vendor_roots),
    ]
    for rel in roots:
        found_files, found_dirs = tree(ws.root, rel, skip=cache_folder)
        files += found_files
        dirs += found_dirs
    for reg in ws.truths:  # validation resolves evidence from the root, then from the package
        for path in (
            p.split("::", 1)[0] for gt in reg.data.statements for p in gt.evidence if "://" not in p
        ):
            files += [path, f"{reg.package_dir}/{path}"] if reg.package_dir else [path]
    files += [f for d in ws.decisions.values() for f in d.files if "://" not in f]  # stale facts check them
    files += _git_head_files(ws.root)  # stale facts read history: a new commit moves HEAD's ref
    files += [rel for agent in ws.agents.values() for rel in agent.context_composition.domain_knowledge]
    try:
        manifest = read_manifest(ws.root, ws.config)
    except OrkestraError:  # unreadable: the manifest itself is watched, its outputs cannot be known
        manifest = None
    files += list(manifest.files) if manifest else []
    files += [p.as_posix() for p in sorted(PACKAGED_TEMPLATES.rglob("*")) if p.is_file()]
    files += [(PACKAGE_DIR / rel).as_posix() for rel in SHAPING_MODULES]
    return Watch(files=tuple(files), dirs=tuple(dirs))


def _git_head_files(root) -> list[str]:
    """Absolute paths of the files a commit or checkout rewrites: HEAD, its branch ref, packed-refs."""
    from orkestra.inspect.index_health import find_git_dir

    git_dir = find_git_dir(root)
    if git_dir is None:
        return []
    common = git_dir
    commondir = git_dir / "commondir"  # a linked worktree keeps refs in the main git dir
    if commondir.is_file():
        text = commondir.read_text(encoding="utf-8").strip()
        common = (git_dir / text).resolve()
    found = [git_dir / "HEAD", common / "packed-refs"]
    try:
        head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        head = ""
    if head.startswith("ref: "):
        ref = head[5:].strip()
        found += [git_dir / ref, common / ref]
    return list(dict.fromkeys(p.as_posix() for p in found))
