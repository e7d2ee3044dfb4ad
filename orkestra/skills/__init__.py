"""Skills: lifecycle, vendor roots, and the trust review (audit, evaluate, ingest)."""
