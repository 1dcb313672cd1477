import { createRedactor, REDACTED } from '../../../core/redact.js';

/**
 * Field names that are secret in a capture though not everywhere: CSRF tokens under their
 * framework names (Rails `authenticity_token`, Express `_csrf`, Django `csrfmiddlewaretoken`)
 * and one-time codes and PINs — as form fields, query parameters and JSON fields.
 */
export const CAPTURE_SECRET_NAMES = [
  'authenticity_token',
  '_csrf',
  'csrf_token',
  'csrfmiddlewaretoken',
  '__RequestVerificationToken',
  'otp',
  'otp_code',
  'totp',
  'mfa_code',
  'pin',
  'pin_code',
];

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
  }
  return out;
}

/**
 * A HAR with its secrets removed: secret headers and cookies, secret form, query and JSON
 * fields (the capture names above included), userinfo passwords, and any echo of those values
 * elsewhere in the file. A page's CSRF meta tags, hidden inputs and secret-named elements are
 * the redactor's markup rule (core/redact-markup.ts), the capture names included. URLs stay URLs,
 * so `tally fish` reads the file `tally capture` wrote.
 */
export function redactHar<T extends HarLike>(har: T): T {
  const redactor = createRedactor({ secretNames: CAPTURE_SECRET_NAMES });
  const entries = har.log.entries.map((entry) => scrubEntry(entry as Record<string, unknown>));
  return redactor.redact({ ...har, log: { ...har.log, entries } }) as T;
}
