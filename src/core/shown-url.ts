import { decodeFormValue } from './percent-decoding.js';
import { isSecretName } from './redact.js';

/** Security: what stands where a credential was (as `redactPostgresUrl` prints it). */
const MASK = '***';

/** `scheme://` or `//`, then the authority (userinfo, host, port) up to the path, query or fragment. */
const AUTHORITY = /^(\s*(?:[a-z][a-z0-9+.-]*:)?\/\/)([^/?#]*)/i;

/** `k=v&k2=v2` with each secret-named value masked; every other byte kept. */
function maskPairs(pairs: string): string {
  return pairs
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq > 0 && eq < pair.length - 1 && isSecretName(decodeFormValue(pair.slice(0, eq)))
        ? `${pair.slice(0, eq + 1)}${MASK}`
        : pair;
    })
    .join('&');
}

/**
 * `url` as it may be shown to a person (a warning, `tally doctor`, a result, an emitted file):
 * a userinfo password masked (`http://user:***@host/`) and so is a secret-named query or
 * fragment value (`?api_key=***`); every other character as written, so the user still
 * recognises the URL they passed. A text that is no URL comes back unchanged.
 */
export function shownUrl(url: string): string {
  let out = url;
  const authority = AUTHORITY.exec(url);
  if (authority) {
    const [whole, head, hostPart] = authority as unknown as [string, string, string];
    // The host follows the last `@` (as WHATWG URL parses it): a password may hold an `@`.
    const at = hostPart.lastIndexOf('@');
    const colon = hostPart.indexOf(':');
    if (at >= 0 && colon >= 0 && colon < at)
      out = `${head}${hostPart.slice(0, colon)}:${MASK}${hostPart.slice(at)}${url.slice(whole.length)}`;
  }
  const hashAt = out.indexOf('#');
  const beforeHash = hashAt >= 0 ? out.slice(0, hashAt) : out;
  const queryAt = beforeHash.indexOf('?');
  if (queryAt < 0 && hashAt < 0) return out;
  const path =
    queryAt >= 0 ? beforeHash.slice(0, queryAt + 1) + maskPairs(beforeHash.slice(queryAt + 1)) : beforeHash;
  return hashAt >= 0 ? `${path}#${maskPairs(out.slice(hashAt + 1))}` : path;
}
