import { connect } from 'node:net';
import type { RunObserver } from '../../core/agent/run-observer.js';
import { errorMessage } from '../../core/errors.js';
import type { FailOpen } from '../../core/fail-open.js';
import { shownUrl } from '../../core/shown-url.js';
import { DEFAULT_TRACES_ENDPOINT, telemetryEnabled, tracesEndpoint } from './telemetry-enabled.js';

/** How long one export may take before it counts as failed (OTEL_EXPORTER_OTLP_TIMEOUT overrides). */
const EXPORT_TIMEOUT_MS = 2_000;
/** The most a command's exit waits for the last spans to go out. */
const SHUTDOWN_LIMIT_MS = 3_000;

/** How long the probe of the collector waits for a TCP connection before calling it down. */
const PROBE_LIMIT_MS = 1_000;

/**
 * Whether anything accepts a TCP connection at the collector's host and port: undefined when
 * something does, else why not ("connect ECONNREFUSED …", "no connection within 1000 ms").
 * It sends nothing: a collector that accepts but then fails is left to the export's timeout.
 */
export function probeCollector(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(`not a URL: ${url}`);
      return;
    }
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const socket = connect({ host, port });
    socket.unref();
    const settle = (reason: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => settle(`no connection within ${PROBE_LIMIT_MS} ms`), PROBE_LIMIT_MS);
    timer.unref();
    socket.once('connect', () => settle(undefined));
    socket.once('error', (error) =>
      settle(`connect ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)} ${host}:${port}`),
    );
  });
}

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
      `tally: traces could not be exported to ${shownUrl(tracesEndpoint(env) ?? DEFAULT_TRACES_ENDPOINT)} (${reason}); runs are still recorded in the ledger. Start the collector, fix OTEL_EXPORTER_OTLP_ENDPOINT, or unset OTEL_TRACES_EXPORTER.\n`,
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
    // Started now, beside the command's own work: by the time spans are exported it has long said
    // whether anything listens there, so a collector that is down costs no export and no retries.
    const probe = probeCollector(url ?? DEFAULT_TRACES_ENDPOINT);
    let down: string | undefined;
    void probe.then((reason) => {
      down = reason;
    });
    // The exporter's own default (10 s, with retries) made every command wait that long for a
    // collector that is down; a collector on the network answers well within this. The standard
    // timeout variables still win.
    const timeout = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT || env.OTEL_EXPORTER_OTLP_TIMEOUT;
    const exporter = new OTLPTraceExporter({
      ...(url ? { url } : {}),
      timeoutMillis: timeout && Number(timeout) > 0 ? Number(timeout) : EXPORT_TIMEOUT_MS,
    });
    const provider = new BasicTracerProvider({
      resource: resources
        .resourceFromAttributes({ 'service.name': options.serviceName ?? 'tally' })
        .merge(resources.detectResources({ detectors: [resources.envDetector] })),
      spanProcessors: [
        new BatchSpanProcessor({
          export: (spans, done) => {
            // Once it failed (or the probe found nothing listening), later batches are dropped at
            // once: the exporter would retry each until its timeout, for nothing.
            if (down !== undefined) {
              unavailable(down);
              done({ code: 1 });
              return;
            }
            exporter.export(spans, (result) => {
              // 0 is ExportResultCode.SUCCESS; anything else is a failed export.
              if (result.code !== 0) {
                down = result.error ? errorMessage(result.error) : 'export failed';
                unavailable(down);
              }
              done(result);
            });
          },
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
        // Bounded: whatever the exporter does, the command's exit waits at most this long.
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), SHUTDOWN_LIMIT_MS);
          timer.unref();
        });
        try {
          // The probe is bounded (PROBE_LIMIT_MS) and usually settled long before the exit.
          const reason = await Promise.race([probe, late.then(() => undefined)]);
          if (reason !== undefined) {
            unavailable(reason);
            return;
          }
          const ended = await Promise.race([provider.forceFlush().then(() => provider.shutdown()), late]);
          if (ended === 'late') unavailable(`no answer within ${SHUTDOWN_LIMIT_MS} ms`);
        } catch (error) {
          unavailable(errorMessage(error));
        } finally {
          clearTimeout(timer);
        }
      },
    };
  } catch (error) {
    unavailable(errorMessage(error));
    return undefined;
  }
}
