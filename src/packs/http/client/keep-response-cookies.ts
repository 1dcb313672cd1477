import { decodePercent } from '../../../core/percent-decoding.js';
import type { LiveSession, SessionCsrf } from './login-recipe.js';

/**
 * Takes a response's Set-Cookie lines into the session, as a browser takes every response's:
 * a rotated session id or a refreshed CSRF cookie is what the next request sends, a deleted
 * cookie is sent no more. Synchronous, so requests in flight together settle as a browser's
 * do: the last response wins. Returns the values the session did not hold before, as sent
 * and percent-decoded (the form a CSRF header carries).
 *
 * Security: they are secrets from this moment; the caller makes redaction know them before
 * anything holding the response is written.
 */
export function keepResponseCookies(session: LiveSession, setCookies: string[]): string[] {
  if (setCookies.length === 0) return [];
  const learned = session.jar.store(setCookies);
  const csrf = session.csrf;
  if (csrf?.cookie !== undefined) {
    const value = session.jar.get(csrf.cookie);
    if (value !== undefined) csrf.token = decodePercent(value);
  }
  return [...new Set(learned.flatMap((value) => [value, decodePercent(value)]))];
}

/**
 * The CSRF header to send now: a cookie-borne token only while the jar still holds its cookie
 * (a page's script reads it from `document.cookie` before each request).
 */
export function currentCsrf(session: LiveSession): SessionCsrf | undefined {
  const csrf = session.csrf;
  if (csrf?.cookie !== undefined && session.jar.get(csrf.cookie) === undefined) return undefined;
  return csrf;
}
