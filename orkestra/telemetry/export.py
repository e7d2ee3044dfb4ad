"""Optional export of events as OTLP/HTTP log records (protobuf) to a collector.

Needs the ``otel`` extra (``pip install 'orkestra[otel]'``). Labels become log attributes
(Loki indexes them), the fields travel as the JSON body, and every record carries
``service.name=orkestra-hooks``. Problems are returned as warnings, never raised: a missing
collector must not break the hook.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime

from orkestra.telemetry.events import Event

SERVICE_NAME = "orkestra-hooks"
TIMEOUT_SECONDS = 3.0


def logs_url(endpoint: str) -> str:
    """``http://host:4318`` → ``http://host:4318/v1/logs``; a URL already ending in /v1/logs is kept."""
    endpoint = endpoint.rstrip("/")
    return endpoint if endpoint.endswith("/v1/logs") else endpoint + "/v1/logs"


def _nanos(ts: str) -> int:
    moment = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    return int(moment.timestamp()) * 1_000_000_000 + moment.microsecond * 1000


def export_events(events: Iterable[Event], endpoint: str, timeout: float = TIMEOUT_SECONDS) -> list[str]:
    """POST ``events`` to the collector at ``endpoint``; returns warnings (empty when all went out)."""
    try:
        from opentelemetry._logs import LogRecord
        from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
        from opentelemetry.sdk._logs import LoggerProvider
        from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
        from opentelemetry.sdk.resources import Resource
    except ImportError as exc:
        return [f"OTLP export skipped: the 'otel' extra is not installed ({exc.name})"]

    url = logs_url(endpoint)
    warnings: list[str] = []

    class Recording(OTLPLogExporter):
        """The SDK exporter, remembering failed batches instead of only logging them."""

        def export(self, batch):  # type: ignore[no-untyped-def]
            result = super().export(batch)
            if result.name != "SUCCESS":
                warnings.append(f"OTLP export of {len(batch)} event(s) to {url} failed")
            return result

    provider = LoggerProvider(resource=Resource.create({"service.name": SERVICE_NAME}))
    provider.add_log_record_processor(SimpleLogRecordProcessor(Recording(endpoint=url, timeout=timeout)))
    logger = provider.get_logger("orkestra.telemetry")
    for event in events:
        logger.emit(
            LogRecord(
                timestamp=_nanos(event.ts),
                event_name=event.name,
                attributes=event.labels,
                body=json.dumps(event.fields, ensure_ascii=False, default=str),
            )
        )
    provider.shutdown()
    return warnings
