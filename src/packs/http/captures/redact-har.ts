import { createRedactor, REDACTED } from '../../../core/redact.js';

const CSRF_META = /(<meta\s+name=["']csrf-token["']\s+content=["'])[^"']*(["'])/gi;

interface HarLike {
  log: { entries: unknown[]; [key: string]: unknown };
  [key: string]: unknown;
}

function scrubEntry(entry: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(entry);
  for (const side of ['request', 'response'] as const) {
    const message = out[side] as Record<string, unknown> | undefined;
    if (!message) continue;
    // Cookie names are not secret-looking (`demo_sid`), so every cookie value goes.
    if (Array.isArray(message.cookies)) {
      message.cookies = (message.cookies as Record<string, unknown>[]).map((cookie) => ({
        ...cookie,
        value: REDACTED,
      }));
    }
    const content = message.content as { text?: string } | undefined;
    if (content && typeof content.text === 'string')
      content.text = content.text.replace(CSRF_META, `$1${REDACTED}$2`);
  }
  return out;
}

/**
 * A HAR with its secrets removed: secret headers and cookies, secret form and JSON fields,
 * CSRF tokens in page meta tags, and any echo of those values elsewhere in the file.
 */
export function redactHar<T extends HarLike>(har: T): T {
  const redactor = createRedactor();
  const entries = har.log.entries.map((entry) => scrubEntry(entry as Record<string, unknown>));
  return redactor.redact({ ...har, log: { ...har.log, entries } }) as T;
}
