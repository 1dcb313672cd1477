import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface HttpAccessPolicy {
  /** The port the server listens on: a Host naming another port is refused. */
  port: number;
  /** The `--host` it listens on (`0.0.0.0`, `::` for every interface). */
  listenHost: string;
  /** Exact origins allowed besides loopback ones (`--allow-origin`). */
  allowOrigins: string[];
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
}

export interface HttpRejection {
  status: 401 | 403;
  message: string;
  headers?: Record<string, string>;
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped spellings. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^::ffff:/i, '');
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/** Names that mean "this machine": localhost (and its subdomains) or a loopback address. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}

function splitHost(header: string): { hostname: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(header.trim());
  if (!match?.[1]) return undefined;
  return { hostname: match[1].toLowerCase(), port: match[2] ? Number(match[2]) : 80 };
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * Security: DNS rebinding. The Host must name this server's port and either a loopback
 * name — only from a loopback peer, so a remote machine cannot pass by sending
 * `Host: localhost` to a 0.0.0.0 listener — or the address the connection actually arrived
 * on (or the configured `--host`).
 */
export function isAllowedHost(
  header: string | undefined,
  connection: { remoteAddress?: string; localAddress?: string },
  policy: Pick<HttpAccessPolicy, 'port' | 'listenHost'>,
): boolean {
  const parsed = header ? splitHost(header) : undefined;
  if (!parsed || parsed.port !== policy.port) return false;
  const name = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isLoopbackHostname(name)) return isLoopbackAddress(connection.remoteAddress);
  const local = connection.localAddress?.replace(/^::ffff:/i, '').toLowerCase();
  if (local && name === local) return true;
  const listen = policy.listenHost.toLowerCase().replace(/^\[|\]$/g, '');
  return !WILDCARDS.has(listen) && name === listen;
}

/**
 * Security: a browser page may only reach the server from a loopback origin or one the
 * user allowed. No Origin at all is a non-browser client (the SDK, curl) and passes.
 */
export function isAllowedOrigin(origin: string | undefined, allowOrigins: string[]): boolean {
  if (origin === undefined) return true;
  if (allowOrigins.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch (error) {
    if (error instanceof TypeError) return false; // "null" and other opaque origins
    throw error;
  }
  if (allowOrigins.includes(url.origin)) return true;
  return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHostname(url.hostname);
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Security: compares digests with timingSafeEqual, so neither content nor length leaks by timing. */
export function bearerTokenMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const given = match?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/** The checks every request passes before any session (or ledger run) is touched. */
export function checkHttpAccess(
  request: IncomingMessage,
  policy: HttpAccessPolicy,
): HttpRejection | undefined {
  const host = request.headers.host;
  if (!isAllowedHost(host, request.socket, policy))
    return {
      status: 403,
      message: `Host "${String(host)}" is not allowed from ${String(request.socket.remoteAddress)}. Connect to the address the server listens on.`,
    };
  const origin = request.headers.origin;
  if (!isAllowedOrigin(origin, policy.allowOrigins))
    return {
      status: 403,
      message: `Origin "${origin}" is not allowed. Start the server with --allow-origin ${origin} to let that page in.`,
    };
  if (policy.token !== undefined && !bearerTokenMatches(request.headers.authorization, policy.token))
    return {
      status: 401,
      message:
        'Missing or wrong bearer token. Send "Authorization: Bearer <token>" with the --auth-token (TALLY_MCP_TOKEN) value.',
      headers: { 'www-authenticate': 'Bearer realm="tally-mcp"' },
    };
  return undefined;
}
