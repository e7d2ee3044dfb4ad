"""The trust review of skills: injection scan, script audits, conformance, evaluation, ingestion, vendor roots."""
