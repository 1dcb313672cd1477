import { BrowserUnavailableError } from './browser-error.js';
import { requireBrowser } from './browser-requirements.js';
import { checkLoopbackUrl } from './check-loopback-url.js';
import { HEADLESS_CHROMIUM_ARGS } from './chromium-settings.js';

const MAX_ITEMS = 50;
const TEXT_CHARS = 500;

export interface PageReport {
  url: string;
  /** Where the page ended up (after loopback redirects). */
  finalUrl: string;
  /** The main document's HTTP status; absent when no response came (refused, blocked). */
  httpStatus?: number;
  title: string;
  consoleErrors: { text: string; location?: string }[];
  pageErrors: { message: string }[];
  /** Requests that failed at the network level or were answered 400 or more (404 images, scripts…). */
  failedRequests: { url: string; method: string; resourceType: string; status?: number; failure?: string }[];
  /** Requests to hosts that are not loopback, stopped before they left the machine. */
  blockedRequests: { url: string; why: string }[];
  /** Whether the page loaded within the deadline (else what was seen until then). */
  loaded: boolean;
  durationMs: number;
}

export interface RenderPageOptions {
  timeoutMs: number;
  /** Quiet time after `load` to catch late errors (timers, fetches). */
  settleMs?: number;
  chromiumPath?: string;
  signal?: AbortSignal;
}

const clip = (text: string) => (text.length <= TEXT_CHARS ? text : `${text.slice(0, TEXT_CHARS - 1)}…`);
const firstLine = (error: unknown) => String((error as Error)?.message ?? error).split('\n')[0] ?? '';
const push = <T>(list: T[], item: T) => {
  if (list.length < MAX_ITEMS) list.push(item);
};

/**
 * Renders one loopback URL in a fresh headless Chromium and reports what a developer would
 * see in the console and the network panel. Security: every request the page makes (the
 * navigation and its redirects included) is checked with the same loopback predicate; any
 * other host is aborted in the browser before it leaves the machine and listed as blocked.
 */
export async function renderPage(target: URL, options: RenderPageOptions): Promise<PageReport> {
  const { chromium, executablePath } = await requireBrowser('browser_console', {
    ...(options.chromiumPath ? { executablePath: options.chromiumPath } : {}),
  });
  const started = performance.now();
  let browser: Awaited<ReturnType<typeof chromium.launch>>;
  try {
    browser = await chromium.launch({
      executablePath,
      args: HEADLESS_CHROMIUM_ARGS,
      timeout: options.timeoutMs,
    });
  } catch (error) {
    throw new BrowserUnavailableError(
      'BROWSER_UNAVAILABLE',
      `Chromium at ${executablePath} did not start (${clip(firstLine(error))}). Check the binary, or set TALLY_CHROMIUM to a working one.`,
      { executablePath },
    );
  }
  const abort = () => void browser.close();
  options.signal?.addEventListener('abort', abort, { once: true });
  const report: PageReport = {
    url: target.href,
    finalUrl: target.href,
    title: '',
    consoleErrors: [],
    pageErrors: [],
    failedRequests: [],
    blockedRequests: [],
    loaded: false,
    durationMs: 0,
  };
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    // Requests the route already reported (blocked, unreachable): not listed twice.
    const reported = new WeakSet<object>();
    // WebSockets bypass context.route: they get the same loopback check (ws→http, wss→https).
    await context.routeWebSocket(/.*/, (socket) => {
      const url = socket.url();
      const verdict = checkLoopbackUrl(url.replace(/^ws(s?):/i, 'http$1:'));
      if (!verdict.ok) {
        push(report.blockedRequests, { url: clip(url), why: verdict.code });
        return socket.close({ code: 1008, reason: 'blocked: not a loopback host' });
      }
      socket.connectToServer();
    });
    await context.route('**/*', async (route) => {
      const request = route.request();
      const url = request.url();
      const verdict = checkLoopbackUrl(url);
      if (!verdict.ok) {
        reported.add(request);
        push(report.blockedRequests, { url: clip(url), why: verdict.code });
        return route.abort('blockedbyclient');
      }
      // Security: the browser follows redirects without asking the route again, so each
      // request is fetched here without following them; a redirect is handed to the page
      // only when its target passes the same check (the page's next request is routed too).
      let response: Awaited<ReturnType<typeof route.fetch>>;
      try {
        response = await route.fetch({ maxRedirects: 0 });
      } catch (error) {
        // Not swallowed: an unreachable preview server is a finding of the report.
        reported.add(request);
        push(report.failedRequests, {
          url: clip(url),
          method: request.method(),
          resourceType: request.resourceType(),
          failure: clip(firstLine(error)),
        });
        return route.abort('connectionrefused');
      }
      const location = response.headers().location;
      if (response.status() >= 300 && response.status() < 400 && location) {
        const next = new URL(location, url).href;
        const nextVerdict = checkLoopbackUrl(next);
        if (!nextVerdict.ok) {
          reported.add(request);
          push(report.blockedRequests, { url: clip(next), why: nextVerdict.code });
          return route.abort('blockedbyclient');
        }
      }
      return route.fulfill({ response });
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const { url, lineNumber } = message.location();
      push(report.consoleErrors, {
        text: clip(message.text()),
        ...(url ? { location: `${url}:${lineNumber + 1}` } : {}),
      });
    });
    page.on('pageerror', (error) => push(report.pageErrors, { message: clip(error.message) }));
    page.on('requestfailed', (request) => {
      if (reported.has(request)) return;
      const failure = request.failure()?.errorText ?? 'failed';
      push(report.failedRequests, {
        url: clip(request.url()),
        method: request.method(),
        resourceType: request.resourceType(),
        failure,
      });
    });
    page.on('response', (response) => {
      if (response.status() < 400) return;
      const request = response.request();
      push(report.failedRequests, {
        url: clip(response.url()),
        method: request.method(),
        resourceType: request.resourceType(),
        status: response.status(),
      });
    });
    try {
      const response = await page.goto(target.href, { timeout: options.timeoutMs, waitUntil: 'load' });
      if (response) report.httpStatus = response.status();
      report.loaded = true;
      await page.waitForTimeout(options.settleMs ?? 250);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // A refused connection, a timeout, a blocked redirect: what was seen so far is the report.
      const known = [...report.failedRequests, ...report.blockedRequests].some(
        (item) => item.url === target.href,
      );
      if (!known)
        push(report.failedRequests, {
          url: target.href,
          method: 'GET',
          resourceType: 'document',
          failure: clip(firstLine(error)),
        });
    }
    report.finalUrl = page.url();
    report.title = clip(await page.title());
  } finally {
    options.signal?.removeEventListener('abort', abort);
    await browser.close();
  }
  report.durationMs = Math.round(performance.now() - started);
  return report;
}
