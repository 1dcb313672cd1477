/**
 * Whether the standard OTel variables ask for a trace exporter Tally can serve (OTLP over
 * HTTP). Off by default: no variable, no SDK loaded, no span made.
 */
export function telemetryEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (exporters.includes('none')) return false;
  if (exporters.includes('otlp')) return true;
  // An endpoint alone enables export only while no other exporter was named.
  return (
    exporters.length === 0 &&
    Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT)
  );
}

/** Where the OTLP HTTP exporter sends traces when no variable names a URL. */
export const DEFAULT_TRACES_ENDPOINT = 'http://localhost:4318/v1/traces';

/** The traces URL the standard variables name; undefined leaves the exporter's default (DEFAULT_TRACES_ENDPOINT). */
export function tracesEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}
