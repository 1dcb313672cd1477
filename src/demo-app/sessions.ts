import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface Session {
  id: string;
  email: string;
  csrf: string;
}

export const SESSION_COOKIE = 'demo_sid';

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies[part.slice(0, eq).trim()] = decodeURIComponent(part.slice(eq + 1).trim());
  }
  return cookies;
}

/** Cookie sessions with a per-session CSRF token; a new login always gets new values. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  create(email: string): Session {
    const session = { id: randomBytes(18).toString('hex'), email, csrf: randomBytes(18).toString('hex') };
    this.sessions.set(session.id, session);
    return session;
  }

  fromRequest(request: IncomingMessage): Session | undefined {
    const id = parseCookies(request.headers.cookie)[SESSION_COOKIE];
    return id ? this.sessions.get(id) : undefined;
  }

  destroy(id: string): void {
    this.sessions.delete(id);
  }
}
