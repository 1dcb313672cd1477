export type LoopbackVerdict =
  | { ok: true; url: URL }
  | {
      ok: false;
      code: 'URL_INVALID' | 'URL_SCHEME_REFUSED' | 'URL_CREDENTIALS_REFUSED' | 'URL_NOT_LOOPBACK';
      reason: string;
    };

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);

/** 127.0.0.0/8 as the WHATWG parser writes IPv4 hosts (it already turned `127.1`, `0x7f.1` into dotted quads). */
function isLoopbackIpv4(host: string): boolean {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part)) && parts[0] === '127';
}

/** `[::1]`, and IPv4-mapped loopback `[::ffff:7f00:1]` (the parser's spelling of ::ffff:127.0.0.1). */
function isLoopbackIpv6(host: string): boolean {
  if (!host.startsWith('[') || !host.endsWith(']')) return false;
  const address = host.slice(1, -1);
  if (address === '::1') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  return mapped !== null && Number.parseInt(mapped[1] as string, 16) >> 8 === 127;
}

/**
 * Security: whether a URL may be opened by the browser tool: http(s) to a loopback host only.
 * The check runs on the URL as the WHATWG parser (the one Chromium follows) reads it, never
 * on the text, so `http://127.1`, `http://0x7f.1` are loopback and `http://localhost.evil.com`,
 * `http://127.0.0.1.nip.io` are not. Credentials in the URL are refused: `http://evil@127.0.0.1`
 * is loopback, but a URL that spells a name before `@` is how a host gets misread by people.
 */
export function checkLoopbackUrl(text: string): LoopbackVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return {
      ok: false,
      code: 'URL_INVALID',
      reason: `"${text}" is not an absolute URL. Pass one like http://127.0.0.1:5173/.`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return {
      ok: false,
      code: 'URL_SCHEME_REFUSED',
      reason: `${url.protocol} URLs are not opened; only http: and https: to a local preview server. Start the preview server and pass its http://127.0.0.1:PORT/ URL.`,
    };
  if (url.username !== '' || url.password !== '')
    return {
      ok: false,
      code: 'URL_CREDENTIALS_REFUSED',
      reason: `The URL carries credentials before "@" (host ${url.hostname}); they are refused. Pass the URL without "user@".`,
    };
  const host = url.hostname.toLowerCase();
  if (!(LOOPBACK_NAMES.has(host) || isLoopbackIpv4(host) || isLoopbackIpv6(host)))
    return {
      ok: false,
      code: 'URL_NOT_LOOPBACK',
      reason: `${url.hostname} is not a loopback host; browser_console only opens local previews (127.0.0.0/8, ::1, localhost). Pass the local preview server's URL, e.g. http://127.0.0.1:5173/.`,
    };
  return { ok: true, url };
}
