import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TallyError } from '../../../core/errors.js';
import { redactHar } from '../captures/redact-har.js';
import { loadBrowserScript, runBrowserScript } from './browser-script.js';
import { launchChromium, wantsHeadless } from './launch-chromium.js';

export interface CaptureSessionOptions {
  url: string;
  out: string;
  /** Drives the page (headless); without one a person uses the headed browser and closes it. */
  script?: string;
  headless?: boolean;
  /** Keep cookies, tokens and passwords in the HAR (off: they are redacted on save). */
  keepSecrets?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Ends a person's session early (Ctrl-C, SIGTERM): what was recorded so far is saved. */
  signal?: AbortSignal;
  /** Headless without a script: how long the page may keep loading before the HAR is saved. */
  settleMs?: number;
}

const DEFAULT_SETTLE_MS = 15_000;

/** Resolves when the signal aborts (never without one). */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

export interface CaptureSessionResult {
  out: string;
  entries: number;
  headless: boolean;
}

/**
 * Records a browser session as a HAR with bodies: Chromium opens `url`, the script (or a
 * person) uses the app, and the HAR Playwright writes on context close is redacted before
 * it is saved — the raw file lives only in a private temp folder, removed at the end.
 */
export async function captureSession(options: CaptureSessionOptions): Promise<CaptureSessionResult> {
  const script = options.script ? await loadBrowserScript(options.script) : undefined;
  const headless = wantsHeadless(options);
  const scratch = mkdtempSync(join(tmpdir(), 'tally-capture-'));
  const rawHar = join(scratch, 'raw.har');
  try {
    const browser = await launchChromium({
      headless,
      purpose: '`tally capture`',
      ...(options.env ? { env: options.env } : {}),
    });
    try {
      const context = await browser.newContext({ recordHar: { path: rawHar, content: 'embed' } });
      const page = await context.newPage();
      await page.goto(options.url).catch((error: unknown) => {
        // The browser's own words for a page it could not open (net::ERR_CONNECTION_REFUSED…):
        // the app is not there, which is no bug in Tally.
        const net = /net::ERR_[A-Z_]+/.exec(error instanceof Error ? error.message : String(error));
        if (!net) throw error;
        throw new TallyError(
          'SERVER_UNREACHABLE',
          `The browser could not open ${options.url} (${net[0]}). Check that the app is running there, then capture again.`,
          { url: options.url },
        );
      });
      if (script && options.script)
        await runBrowserScript(options.script, script, {
          page,
          context,
          baseUrl: new URL(options.url).origin,
        });
      // Headless and nothing drives the page: what it does on load is all there is to record.
      // Waiting for a person to close a window nobody can see hung forever.
      else if (headless)
        await Promise.race([
          page
            .waitForLoadState('networkidle', { timeout: options.settleMs ?? DEFAULT_SETTLE_MS })
            .catch(() => undefined),
          aborted(options.signal),
        ]);
      // A person browses until they close the window (or interrupt: the HAR so far is kept).
      else await Promise.race([page.waitForEvent('close', { timeout: 0 }), aborted(options.signal)]);
      await context.close(); // the HAR is written here
    } finally {
      await browser.close();
    }
    const raw = JSON.parse(readFileSync(rawHar, 'utf8'));
    const har = options.keepSecrets ? raw : redactHar(raw);
    writeFileSync(options.out, `${JSON.stringify(har, null, 1)}\n`, { mode: 0o600 });
    chmodSync(options.out, 0o600);
    return { out: options.out, entries: (har.log.entries as unknown[]).length, headless };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
