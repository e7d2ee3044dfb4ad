"""The ledgers' file names under ``mining.ledger_dir`` and their writers' lock under the index folder: a
leaf below the ledger's writer (``ledger``) and its typed line reader (``records``)."""

PROCESSED_FILE = "commits_processed.jsonl"
RELEASE_NOTES_FILE = "release_notes.jsonl"
LOCK_FILE = "ledger.lock"
