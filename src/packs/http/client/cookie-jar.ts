interface Cookie {
  name: string;
  value: string;
  path: string;
  /** When it lapses (ms since the epoch); undefined: a session cookie, kept for the run. */
  expiresAt?: number;
}

/** What one Set-Cookie line asks for: a cookie to hold until `expiresAt`, or one to drop. */
interface SetCookie extends Cookie {
  expired: boolean;
}

function parseSetCookie(header: string, now: number): SetCookie | undefined {
  const [pair, ...attributes] = header.split(';');
  const eq = pair?.indexOf('=') ?? -1;
  if (!pair || eq <= 0) return undefined;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  let path = '/';
  let maxAge: number | undefined;
  let expires: number | undefined;
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const attributeValue = at < 0 ? '' : attribute.slice(at + 1).trim();
    if (key === 'path' && attributeValue.startsWith('/')) path = attributeValue;
    if (key === 'max-age' && /^-?\d+$/.test(attributeValue)) maxAge = Number(attributeValue);
    if (key === 'expires' && !Number.isNaN(Date.parse(attributeValue))) expires = Date.parse(attributeValue);
  }
  // Max-Age wins over Expires (RFC 6265 §5.3); either in the past deletes the cookie.
  const expiresAt = maxAge !== undefined ? now + maxAge * 1000 : expires;
  const expired = value === '' || (expiresAt !== undefined && expiresAt <= now);
  return { name, value, path, expired, ...(expiresAt !== undefined ? { expiresAt } : {}) };
}

/** RFC 6265 §5.1.4: `/api` matches `/api` and `/api/x`, not `/apix`. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** A browser's limits (RFC 6265 §6.1, Chromium's per-domain cap): an app, or a hostile server, cannot grow the jar without end. */
const MAX_COOKIE_BYTES = 4096;
const MAX_COOKIES = 180;

/**
 * A minimal in-memory cookie jar for one origin, kept the way a browser keeps its store: a
 * cookie is known by its name and path, a later Set-Cookie replaces it, Max-Age or Expires in
 * the past deletes it, and one that lapses is no longer sent. As a browser does, a cookie over
 * 4,096 bytes (name and value) is ignored, and past 180 cookies the one set longest ago goes.
 * Nothing here is ever written to disk.
 */
export class CookieJar {
  private readonly cookies = new Map<string, Cookie>();

  /**
   * Takes a response's Set-Cookie lines; returns the values it did not hold before (a new or
   * rotated cookie), which are secrets from now on.
   */
  store(setCookieHeaders: string[], now = Date.now()): string[] {
    const learned: string[] = [];
    for (const header of setCookieHeaders) {
      const cookie = parseSetCookie(header, now);
      if (!cookie) continue;
      const key = `${cookie.name}\u0000${cookie.path}`;
      if (cookie.expired) {
        this.cookies.delete(key);
        continue;
      }
      if (Buffer.byteLength(cookie.name) + Buffer.byteLength(cookie.value) > MAX_COOKIE_BYTES) continue;
      if (this.cookies.get(key)?.value !== cookie.value) learned.push(cookie.value);
      const { expired: _expired, ...kept } = cookie;
      // Re-inserted: the map's order is then the order cookies were last set in (see `get`).
      this.cookies.delete(key);
      this.cookies.set(key, kept);
      if (this.cookies.size > MAX_COOKIES) this.cookies.delete(this.cookies.keys().next().value as string);
    }
    return learned;
  }

  /** Forgets cookies whose Max-Age or Expires has passed since they were set. */
  private dropLapsed(now: number): void {
    for (const [key, cookie] of this.cookies)
      if (cookie.expiresAt !== undefined && cookie.expiresAt <= now) this.cookies.delete(key);
  }

  /** The Cookie header a browser would send for this path: longest path first, as a browser orders them. */
  header(path: string, now = Date.now()): string | undefined {
    this.dropLapsed(now);
    const matching = [...this.cookies.values()]
      .filter((cookie) => pathMatches(path, cookie.path))
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length > 0
      ? matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
      : undefined;
  }

  /** The value of the cookie named `name` set last (any path), if the jar still holds one. */
  get(name: string, now = Date.now()): string | undefined {
    this.dropLapsed(now);
    let found: string | undefined;
    for (const cookie of this.cookies.values()) if (cookie.name === name) found = cookie.value;
    return found;
  }

  /** The cookie values held now: secrets to scrub wherever they reappear. */
  values(): string[] {
    return [...this.cookies.values()].map((cookie) => cookie.value);
  }

  get size(): number {
    return this.cookies.size;
  }
}
