"""Files and folders below an untrusted checkout, the one careful way each:

- ``roots``: where the project's root is (the nearest folder holding ``orkestra.yaml`` or ``.git``);
- ``scan``: the one folder walker (no recursion, links never entered, skipped and excluded folders pruned);
- ``links``: which paths resolve outside the workspace or into ``.git`` (``Containment``), and the one
  reader of repository files (``read_regular``: regular files only, size-capped);
- ``guard``: the write guard every write or delete below a workspace goes through (``SafeTree``: folders
  opened one at a time with ``O_NOFOLLOW``, a temporary file renamed over the target);
- ``atomic``: writing a file whole or not at all, outside a guarded tree (caches, state).
"""
