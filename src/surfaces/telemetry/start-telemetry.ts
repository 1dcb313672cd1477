import type { RunObserver } from '../../core/agent/run-observer.js';
import { errorMessage } from '../../core/errors.js';
import type { FailOpen } from '../../core/fail-open.js';
import { telemetryEnabled, tracesEndpoint } from './telemetry-enabled.js';

export interface Telemetry {
  /** Pass to `withRunObserver` (or `onEvent`) so runs become spans. */
  observer: RunObserver;
  /** Ends open run spans, exports what is buffered and stops; never throws (a failed export fails open). */
  shutdown(): Promise<void>;
}

export interface StartTelemetryOptions {
  /** Decides whether export is on and where it goes; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where a failed export is logged as `telemetry-unavailable`. */
  failOpen?: FailOpen;
  /** `service.name` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise. */
  serviceName?: string;
}

/**
 * Starts OTLP/HTTP trace export when the standard `OTEL_*` variables ask for it, else
 * returns undefined without loading the SDK. The provider is not registered globally:
 * Tally's spans never hijack a library user's own tracing setup.
 */
export async function startTelemetry(options: StartTelemetryOptions = {}): Promise<Telemetry | undefined> {
  const env = options.env ?? process.env;
  if (!telemetryEnabled(env)) return undefined;
  let reported = false;
  const unavailable = (reason: string) => {
    if (reported) return;
    reported = true;
    options.failOpen?.('telemetry', 'telemetry-unavailable');
    process.stderr.write(
      `tally: traces could not be exported to ${tracesEndpoint(env) ?? 'http://localhost:4318/v1/traces'} (${reason}); runs are still recorded in the ledger. Start the collector, fix OTEL_EXPORTER_OTLP_ENDPOINT, or unset OTEL_TRACES_EXPORTER.\n`,
    );
  };
  try {
    // Loaded here only: a records query or the CLI's start-up never pays for the SDK.
    const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources, { traceObserver }] =
      await Promise.all([
        import('@opentelemetry/sdk-trace-base'),
        import('@opentelemetry/exporter-trace-otlp-http'),
        import('@opentelemetry/resources'),
        import('./trace-observer.js'),
      ]);
    const url = tracesEndpoint(env);
    const exporter = new OTLPTraceExporter(url ? { url } : {});
    const provider = new BasicTracerProvider({
      resource: resources
        .resourceFromAttributes({ 'service.name': options.serviceName ?? 'tally' })
        .merge(resources.detectResources({ detectors: [resources.envDetector] })),
      spanProcessors: [
        new BatchSpanProcessor({
          export: (spans, done) =>
            exporter.export(spans, (result) => {
              // 0 is ExportResultCode.SUCCESS; anything else is a failed export.
              if (result.code !== 0) unavailable(result.error ? errorMessage(result.error) : 'export failed');
              done(result);
            }),
          shutdown: () => exporter.shutdown(),
          forceFlush: () => exporter.forceFlush(),
        }),
      ],
    });
    const traced = traceObserver(provider.getTracer('tally'));
    return {
      observer: traced.observer,
      shutdown: async () => {
        traced.endOpenRuns();
        try {
          await provider.forceFlush();
          await provider.shutdown();
        } catch (error) {
          unavailable(errorMessage(error));
        }
      },
    };
  } catch (error) {
    unavailable(errorMessage(error));
    return undefined;
  }
}
