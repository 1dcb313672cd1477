import { TallyError } from '../../../core/errors.js';
import { isHeaderName, isHeaderValue } from './http1-request-head.js';

/**
 * One `Name: value` header as a user wrote it (`--header`, `TALLY_FISH_HEADERS`), checked as
 * node:http will check it — before any request is sent, so a bad one is a usage error rather
 * than a failed create (the rules node:http and the lean client share, http1-request-head.ts;
 * not node:http's own checks, which would load node:http into every run). Security: no refusal
 * quotes the value, nor a line without a colon (`Authorization Bearer …` is exactly the typo
 * that carries a token).
 */
export function parseHeaderLine(line: string, where: string): [name: string, value: string] {
  const colon = line.indexOf(':');
  if (colon <= 0)
    throw new TallyError(
      'HEADER_INVALID',
      `${where} is not "Name: value" (no name before a colon in its ${line.length} characters; not shown, it may hold a secret). Write it like "Authorization: Bearer $TOKEN".`,
    );
  const name = line.slice(0, colon).trim();
  const value = line.slice(colon + 1).trim();
  if (!isHeaderName(name))
    throw new TallyError(
      'HEADER_INVALID',
      `${where}: "${name.slice(0, 60)}" is not a header name (letters, digits and !#$%&'*+-.^_\`|~, no spaces). Write it like "Authorization: Bearer $TOKEN".`,
    );
  if (!isHeaderValue(value))
    throw new TallyError(
      'HEADER_INVALID',
      `${where}: the value of ${name} holds a character no header can carry (a line break or another control character).`,
    );
  return [name.toLowerCase(), value];
}
