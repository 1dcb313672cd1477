// Public API of `tally-harness/telemetry`: OTLP trace export for library users (README
// "OpenTelemetry"). The SDK loads only when the OTEL_* variables ask for export.
export { type StartTelemetryOptions, startTelemetry, type Telemetry } from './start-telemetry.js';
