"""Agent observability: Claude Code hook events and Codex notify payloads → a local JSONL store.

Stages: ``events`` (payload → Event), ``enrich`` (labels such as tool_type, bash_cli),
``redact`` (secrets out of parameter blobs), ``store`` (append-only JSONL per day),
``report`` (store → aggregates), ``export`` (optional OTLP/HTTP), ``loki`` (the Loki push
exporter and its outbox), ``grafana`` (the generated Grafana dashboard), ``page`` (the local
HTML dashboard), ``settings`` (the
``telemetry:`` config section and the ``.claude/settings.json`` hooks block), ``hook`` (the
``orkestra-hook`` entry point that ties them together for one event).
Importing this package imports nothing: the hook hot path stays stdlib-only.
"""
