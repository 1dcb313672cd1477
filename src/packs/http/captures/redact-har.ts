import { createRedactor, isSecretName, REDACTED } from '../../../core/redact.js';

const CSRF_META = /(<meta\s+name=["']csrf-token["']\s+content=["'])[^"']*(["'])/gi;

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

/** A hidden form input carrying one of those fields (`<input type="hidden" name="authenticity_token" value="…">`), either attribute order. */
const HIDDEN_INPUT = /<input\b[^>]*>/gi;
const INPUT_NAME = /\bname\s*=\s*["']([^"']*)["']/i;
const INPUT_VALUE = /(\bvalue\s*=\s*["'])[^"']*(["'])/i;
const CAPTURE_SECRET_SET = new Set(CAPTURE_SECRET_NAMES.map((name) => name.toLowerCase()));

function scrubInputs(html: string): string {
  return html.replace(HIDDEN_INPUT, (tag) => {
    const name = INPUT_NAME.exec(tag)?.[1];
    if (!name || !(CAPTURE_SECRET_SET.has(name.toLowerCase()) || isSecretName(name))) return tag;
    return tag.replace(INPUT_VALUE, `$1${REDACTED}$2`);
  });
}

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
      content.text = scrubInputs(content.text.replace(CSRF_META, `$1${REDACTED}$2`));
  }
  return out;
}

/**
 * A HAR with its secrets removed: secret headers and cookies, secret form, query and JSON
 * fields (the capture names above included), userinfo passwords, CSRF tokens in page meta
 * tags and hidden inputs, and any echo of those values elsewhere in the file. URLs stay URLs,
 * so `tally fish` reads the file `tally capture` wrote.
 */
export function redactHar<T extends HarLike>(har: T): T {
  const redactor = createRedactor({ secretNames: CAPTURE_SECRET_NAMES });
  const entries = har.log.entries.map((entry) => scrubEntry(entry as Record<string, unknown>));
  return redactor.redact({ ...har, log: { ...har.log, entries } }) as T;
}
