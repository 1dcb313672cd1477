import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { answerWidgets, cookiesOf, fishWidgetsWith, type Widget, widgetServers } from './widget-login-app.js';

// A session that expires mid-run, as real ones do (an idle timeout, a short-lived token): the
// app answers 401 to a session it no longer knows. Tally logs in again with the run's recipe
// (once for requests in flight together), resends the refused request, says so in its evidence,
// and keeps every new session value out of what it writes. A 401 that a fresh session gets too
// is no expiry: the run fails as before, with no login loop.

const servers = widgetServers();
const credentials = { username: 'me', password: '${TALLY_APP_PASSWORD}' };

interface ExpiringApp {
  url: string;
  logins: number;
  /** Status of every write the app answered, in order. */
  writes: number[];
  widgets: Widget[];
  /** Every session value the app handed out: secrets all. */
  issued: string[];
}

/**
 * A widget app whose session lasts `writesPerSession` writes (then 401, "expired"); with
 * `refuseWrites`, every write is 401 whatever the session (the user may not write here).
 */
async function expiringApp(writesPerSession: number, refuseWrites = false): Promise<ExpiringApp> {
  const app: Omit<ExpiringApp, 'url'> = { logins: 0, writes: [], widgets: [], issued: [] };
  const left = new Map<string, number>();
  const json = (response: ServerResponse, status: number, body: unknown, cookie?: string) =>
    response
      .writeHead(status, { 'content-type': 'application/json', ...(cookie ? { 'set-cookie': cookie } : {}) })
      .end(JSON.stringify(body));
  const server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/login') {
        const sent = JSON.parse(text) as Record<string, string>;
        if (sent.username !== 'me' || sent.password !== 'pw-for-test') return json(response, 422, {});
        app.logins += 1;
        const sid = randomBytes(12).toString('hex');
        app.issued.push(sid);
        left.set(sid, writesPerSession);
        return json(response, 204, {}, `sid=${sid}; Path=/; HttpOnly`);
      }
      const sid = cookiesOf(request).sid ?? '';
      const write = request.method === 'POST';
      if (!left.has(sid) || (write && (refuseWrites || (left.get(sid) ?? 0) <= 0))) {
        if (write) app.writes.push(401);
        return json(response, 401, { error: 'session expired' });
      }
      if (write) {
        left.set(sid, (left.get(sid) ?? 0) - 1);
        app.writes.push(201);
      }
      answerWidgets(request, text, app.widgets, (status, body) => json(response, status, body));
    });
  });
  const url = await servers.listen(server);
  return Object.assign(app, { url });
}

const recipe = (url: string) => ({ url: `${url}/login`, json: credentials });

describe("a session that expires mid-run is renewed with the run's login recipe", () => {
  it('sessions of 2 writes: 5 widgets made with 3 logins, each refused write resent once, and said so', async () => {
    const app = await expiringApp(2);
    const { run, written, said } = await fishWidgetsWith(app.url, recipe(app.url), {
      request: '5 widgets',
      flags: ['--concurrency', '1'],
    });
    expect(run.code, said).toBe(0);
    expect(app.widgets).toHaveLength(5);
    expect(app.logins).toBe(3);
    expect(app.writes).toEqual([201, 201, 401, 201, 201, 401, 201]);
    // The evidence says which requests went out again after a fresh login.
    expect(written).toContain('"renewedSession":true');
    for (const value of app.issued) {
      expect(said, 'a session value in the output').not.toContain(value);
      expect(written, 'a session value under .tally').not.toContain(value);
    }
  });

  it('under --concurrency 4 the writes that meet an expired session share one new login', async () => {
    const app = await expiringApp(4);
    const { run, said } = await fishWidgetsWith(app.url, recipe(app.url), {
      request: '8 widgets',
      flags: ['--concurrency', '4'],
    });
    expect(run.code, said).toBe(0);
    expect(app.widgets).toHaveLength(8);
    // At least the 2 logins 8 writes need; far fewer than one per refused write.
    expect(app.logins).toBeGreaterThanOrEqual(2);
    expect(app.logins).toBeLessThanOrEqual(4);
  });

  it('a 401 that a fresh session gets too is no expiry: the run fails, with one extra login, not a loop', async () => {
    const app = await expiringApp(100, true);
    const { run, said } = await fishWidgetsWith(app.url, recipe(app.url), { request: '3 widgets' });
    expect(run.code, said).not.toBe(0);
    expect(app.widgets).toHaveLength(0);
    expect(app.logins).toBe(2);
  });
});
