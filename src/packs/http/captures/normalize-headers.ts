import { parseJsonExact } from '../../../core/parse-json-exact.js';
import { REDACTED } from '../../../core/redact.js';
import { AUTH_HEADERS } from './capture.js';

const ALWAYS_SECRET = new Set(['cookie', 'set-cookie', 'proxy-authorization', ...AUTH_HEADERS]);

/**
 * Splits raw headers into what a capture may keep (names lower-cased, secret values
 * replaced) and the auth values to hold in memory. Cookies are never kept: a live session
 * provides its own.
 */
export function splitHeaders(raw: Record<string, string>): {
  headers: Record<string, string>;
  auth: Record<string, string>;
} {
  const headers: Record<string, string> = {};
  const auth: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const lower = name.toLowerCase();
    if (lower.startsWith(':')) continue; // HTTP/2 pseudo-headers
    if (ALWAYS_SECRET.has(lower)) {
      headers[lower] = REDACTED;
      if ((AUTH_HEADERS as readonly string[]).includes(lower) && value && value !== REDACTED)
        auth[lower] = value;
      continue;
    }
    headers[lower] = value;
  }
  return { headers, auth };
}

export function parseMaybeJson(text: string | undefined, contentType: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return undefined;
  try {
    return parseJsonExact(trimmed);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
