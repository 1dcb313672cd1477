import type { IncomingMessage } from 'node:http';

export type ChatRequestVerdict = { ok: true } | { ok: false; status: number; code: string; reason: string };

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Security: the chat page drives an agent that writes files, so only this machine's browser
 * may use it. The Host header must name a loopback host on our port (a DNS-rebinding page
 * arrives with its own host name); an Origin, when sent, must be that same loopback origin;
 * and a POST must carry the page's token and JSON (a cross-site form cannot set either).
 */
export function checkChatRequest(request: IncomingMessage, port: number, token: string): ChatRequestVerdict {
  const allowed = new Set(LOOPBACK_HOSTS.map((host) => `${host}:${port}`));
  const host = (request.headers.host ?? '').toLowerCase();
  if (!allowed.has(host))
    return {
      ok: false,
      status: 421,
      code: 'HOST_REFUSED',
      reason: `Host "${host}" is not this chat server. Open http://127.0.0.1:${port}/ instead.`,
    };
  const origin = request.headers.origin;
  if (origin !== undefined && !allowed.has(origin.toLowerCase().replace(/^http:\/\//, '')))
    return {
      ok: false,
      status: 403,
      code: 'ORIGIN_REFUSED',
      reason: `Origin "${origin}" may not use this chat server. Use the page at http://127.0.0.1:${port}/.`,
    };
  if (request.method === 'POST') {
    if (origin === undefined)
      return {
        ok: false,
        status: 403,
        code: 'ORIGIN_MISSING',
        reason: 'A POST without an Origin header is refused. Send the message from the chat page.',
      };
    if (request.headers['x-tally-token'] !== token)
      return {
        ok: false,
        status: 403,
        code: 'TOKEN_REFUSED',
        reason: "The request does not carry this server's page token. Reload the chat page and send again.",
      };
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
      return {
        ok: false,
        status: 415,
        code: 'CONTENT_TYPE_REFUSED',
        reason: 'Send the message as application/json, as the chat page does.',
      };
  }
  return { ok: true };
}
