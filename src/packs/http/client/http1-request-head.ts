/**
 * The head of an HTTP/1.1 request, written as node:http writes it (issue 22: the lean client
 * must send what the node:http one sent, byte for byte): the caller's headers in their order and
 * case, then `Host`, `Connection: keep-alive` and, for a method that carries a body but was
 * given none, `Content-Length: 0`, each only when the caller gave no such header. What node:http
 * refuses is refused with its error codes: a method or header name that is no token
 * (ERR_INVALID_HTTP_TOKEN), a header value with a control character or one past Latin-1
 * (ERR_INVALID_CHAR, which is what keeps a header from splitting the request), a path with a
 * space or a control character (ERR_UNESCAPED_CHARACTERS).
 */

/** RFC 9110 token characters: a method and a header name. */
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
/** What a header value may hold: tab, visible ASCII, space, and Latin-1's upper half. */
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
/** A request target: no space, no control character, nothing past Latin-1. */
const INVALID_PATH_CHAR = /[^\u0021-\u00ff]/;
/** Methods node:http sends without a body by default: no `Content-Length: 0` when none is given. */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** A header name node:http would send (an RFC 9110 token). */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** A header value node:http would send: no line break or other control character, nothing past Latin-1. */
export function isHeaderValue(value: string): boolean {
  return !INVALID_VALUE_CHAR.test(value);
}

function invalid(code: string, message: string): TypeError {
  return Object.assign(new TypeError(message), { code });
}

/** The request head to write (Latin-1), or the TypeError node:http would have thrown. */
export function requestHead(
  method: string,
  url: URL,
  headers: Readonly<Record<string, string>>,
  hasBody: boolean,
): string {
  if (!TOKEN.test(method))
    throw invalid('ERR_INVALID_HTTP_TOKEN', `Method must be a valid HTTP token ["${method}"]`);
  const target = `${url.pathname}${url.search}`;
  if (INVALID_PATH_CHAR.test(target))
    throw invalid('ERR_UNESCAPED_CHARACTERS', 'Request path contains unescaped characters');
  // One header per name in any case, as node:http's setHeader keeps them: the place of the
  // first, the name and value of the last (`user-agent`, then `User-Agent: mine/1`).
  const byName = new Map<string, [string, string]>();
  for (const name of Object.keys(headers)) {
    const value = String(headers[name]);
    if (!TOKEN.test(name))
      throw invalid('ERR_INVALID_HTTP_TOKEN', `Header name must be a valid HTTP token ["${name}"]`);
    if (INVALID_VALUE_CHAR.test(value))
      throw invalid('ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
    byName.set(name.toLowerCase(), [name, value]);
  }
  let head = `${method} ${target} HTTP/1.1\r\n`;
  for (const [name, value] of byName.values()) head += `${name}: ${value}\r\n`;
  if (!byName.has('host')) head += `Host: ${url.host}\r\n`;
  if (!byName.has('connection')) head += 'Connection: keep-alive\r\n';
  const framed = byName.has('content-length') || byName.has('transfer-encoding');
  if (!hasBody && !framed && !BODILESS.has(method)) head += 'Content-Length: 0\r\n';
  return `${head}\r\n`;
}
