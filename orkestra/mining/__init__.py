"""Mining git history into institutional memory (SPEC §6).

``git`` (its view of git; processes run by ``orkestra.git``) → ``conventional`` + ``signals`` (pure) → ``index`` (derived,
git-ignored) → ``candidates`` → ``classify`` (writes ``ledger`` lines and ``decisions`` records)
→ ``changelog`` (pure) / ``changelog_files`` (CHANGELOG.md per package), with ``sections``
(commit type → entry, pure); ``auto`` runs sync → classify by type → record → render in one
step; ``status`` and ``validate`` read. Importing this package imports nothing else.
"""
