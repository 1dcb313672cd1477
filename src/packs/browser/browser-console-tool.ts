import { z } from 'zod';
import { defineTool, type ToolOutcome } from '../../core/tool.js';
import { BrowserUnavailableError, BrowserUrlRefusedError } from './browser-error.js';
import { checkLoopbackUrl } from './check-loopback-url.js';
import { type PageReport, renderPage } from './render-page.js';
// Registers browser-unavailable (the tool is used outside a pack registry too).
import './browser-fail-open-reasons.js';

export interface BrowserConsoleOptions {
  /** Deadline for loading the page (ms, default 15 s); the tool's own deadline is this plus 10 s. */
  timeoutMs?: number;
  settleMs?: number;
  /** Default: TALLY_CHROMIUM, else /usr/bin/chromium. */
  chromiumPath?: string;
}

export const BROWSER_CONSOLE = 'browser_console';

type BrowserConsoleResult = PageReport & { ok: true; clean: boolean; problems: number };

/**
 * `browser_console(url)`: the "does the page really render" check after a UI change. Read-only:
 * it opens a local preview URL in headless Chromium and reports; it changes no file.
 */
export function browserConsoleTool(options: BrowserConsoleOptions = {}) {
  const timeoutMs = options.timeoutMs ?? 15_000;
  return defineTool({
    name: BROWSER_CONSOLE,
    description:
      'Render a local preview URL (http://127.0.0.1:PORT/…, http://localhost:PORT/… or http://[::1]:PORT/…; anything else is refused) in headless Chromium and return the HTTP status, console errors, uncaught exceptions and failed requests (404 images, scripts, styles). Use it after a UI change to check that the page really renders. Requests to other hosts are blocked and listed.',
    inputSchema: z.object({
      url: z.string().describe('The local preview URL, e.g. http://127.0.0.1:5173/'),
    }),
    annotations: { readOnly: true, idempotent: true, openWorld: false },
    target: (input) => input.url,
    timeoutMs: timeoutMs + 10_000,
    execute: async (input, context): Promise<ToolOutcome<BrowserConsoleResult>> => {
      const verdict = checkLoopbackUrl(input.url);
      if (!verdict.ok)
        throw new BrowserUrlRefusedError(verdict.code, verdict.reason, { url: input.url.slice(0, 500) });
      let report: PageReport;
      try {
        report = await renderPage(verdict.url, {
          timeoutMs,
          ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
          ...(options.chromiumPath ? { chromiumPath: options.chromiumPath } : {}),
          ...(context.signal ? { signal: context.signal } : {}),
        });
      } catch (error) {
        // Fail open: a missing browser is a tool error the model can report, and a counted fail-open.
        if (error instanceof BrowserUnavailableError)
          context.failOpen(BROWSER_CONSOLE, 'browser-unavailable');
        throw error;
      }
      const problems =
        report.consoleErrors.length +
        report.pageErrors.length +
        report.failedRequests.length +
        report.blockedRequests.length;
      const clean = problems === 0 && report.loaded && (report.httpStatus ?? 0) < 400;
      const status = report.httpStatus === undefined ? 'no response' : `HTTP ${report.httpStatus}`;
      return {
        result: { ok: true, clean, problems, ...report },
        evidence: {
          via: `chromium GET ${report.url} → ${status}, ${report.consoleErrors.length} console error(s), ${report.pageErrors.length} uncaught, ${report.failedRequests.length} failed request(s)${report.blockedRequests.length ? `, ${report.blockedRequests.length} blocked` : ''}`,
          ...(report.httpStatus !== undefined ? { httpStatus: report.httpStatus } : {}),
        },
      };
    },
  });
}
