import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { answerWidgets, cookiesOf, fishWidgetsWith, type Widget, widgetServers } from './widget-login-app.js';

// Apps that change their cookies after the login, as real ones do: a session id rotated on
// every write (the old one refused), a Laravel-style XSRF-TOKEN renewed on every response (a
// write must echo the latest), cookies the server deletes (Max-Age=0, an Expires in the past),
// and a rolling session under --concurrency 4. Tally must follow them as a browser does, and
// every value learned mid-run is a secret: none may reach the ledger, stdout or stderr.

const servers = widgetServers();
const credentials = { username: 'me', password: '${TALLY_APP_PASSWORD}' };

type Reply = (status: number, body: unknown, setCookies?: string[]) => void;

interface App {
  url: string;
  /** Status of every write the app answered, in order. */
  writes: number[];
  /** Every cookie value the app handed out: secrets all. */
  issued: string[];
}

const fresh = () => randomBytes(12).toString('hex');

/** A widget app whose `handle` sees each request whole (its body read) with a JSON reply. */
async function serve(
  handle: (request: IncomingMessage, text: string, cookies: Record<string, string>, reply: Reply) => void,
): Promise<string> {
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      const reply: Reply = (status, body, setCookies = []) =>
        response
          .writeHead(status, {
            'content-type': 'application/json',
            ...(setCookies.length > 0 ? { 'set-cookie': setCookies } : {}),
          })
          .end(JSON.stringify(body));
      handle(request, text, cookiesOf(request), reply);
    });
  });
  return servers.listen(server);
}

const isLogin = (request: IncomingMessage) => request.method === 'POST' && request.url === '/login';
const isWrite = (request: IncomingMessage) => request.method === 'POST' && request.url === '/api/widgets';

function loggedIn(text: string): boolean {
  const sent = JSON.parse(text) as Record<string, string>;
  return sent.username === 'me' && sent.password === 'pw-for-test';
}

/** Answers the widget API, a create's body echoing `trace` (an app that shows the new value back). */
function widgets(
  request: IncomingMessage,
  text: string,
  list: Widget[],
  reply: Reply,
  trace: string,
  set: string[],
) {
  answerWidgets(request, text, list, (status, body) =>
    reply(status, isWrite(request) ? { ...(body as object), trace } : body, set),
  );
}

/** A session id rotated on every successful write; a request with an older one is refused (401). */
async function rotatingSessionApp(): Promise<App> {
  const app: Omit<App, 'url'> = { writes: [], issued: [] };
  const list: Widget[] = [];
  let valid = '';
  const url = await serve((request, text, cookies, reply) => {
    if (isLogin(request)) {
      if (!loggedIn(text)) return reply(422, { error: 'bad credentials' });
      valid = fresh();
      app.issued.push(valid);
      return reply(204, {}, [`sid=${valid}; Path=/; HttpOnly`]);
    }
    if (cookies.sid !== valid) {
      if (isWrite(request)) app.writes.push(401);
      return reply(401, { error: 'session expired: log in again' });
    }
    if (!isWrite(request)) return widgets(request, text, list, reply, '', []);
    app.writes.push(201);
    valid = fresh();
    app.issued.push(valid);
    widgets(request, text, list, reply, valid, [`sid=${valid}; Path=/; HttpOnly; SameSite=Lax`]);
  });
  return { ...app, url };
}

/**
 * Laravel's double submit: `GET /sanctum/csrf-cookie`, then every response sets a new, URL-encoded
 * XSRF-TOKEN (Laravel's is encrypted anew each time); a write whose X-XSRF-TOKEN is not the latest
 * is refused with 419.
 */
async function rotatingXsrfApp(): Promise<App> {
  const app: Omit<App, 'url'> = { writes: [], issued: [] };
  const list: Widget[] = [];
  let latest = '';
  let session = '';
  const renew = () => {
    latest = `${randomBytes(12).toString('base64')}+/=`;
    app.issued.push(latest);
    return `XSRF-TOKEN=${encodeURIComponent(latest)}; Path=/; SameSite=Lax`;
  };
  const url = await serve((request, text, cookies, reply) => {
    const echoed = request.headers['x-xsrf-token'];
    if (request.method === 'GET' && request.url === '/sanctum/csrf-cookie') return reply(204, {}, [renew()]);
    if (isLogin(request)) {
      if (echoed !== latest) return reply(419, { error: 'CSRF token mismatch' }, [renew()]);
      if (!loggedIn(text)) return reply(422, { error: 'bad credentials' }, [renew()]);
      session = fresh();
      app.issued.push(session);
      return reply(204, {}, [`laravel_session=${session}; Path=/; HttpOnly`, renew()]);
    }
    if (!session || cookies.laravel_session !== session) return reply(401, { error: 'log in first' });
    if (isWrite(request) && echoed !== latest) {
      app.writes.push(419);
      return reply(419, { error: 'CSRF token mismatch' }, [renew()]);
    }
    if (isWrite(request)) app.writes.push(201);
    const set = renew();
    widgets(request, text, list, reply, latest, [set]);
  });
  return { ...app, url };
}

/**
 * Two cookies of the login deleted by the first write's response, one by Max-Age=0 and one by an
 * Expires in the past; a request that still carries either is refused (400).
 */
async function deletingApp(): Promise<App & { stale: string[] }> {
  const app: Omit<App, 'url'> & { stale: string[] } = { writes: [], issued: [], stale: [] };
  const list: Widget[] = [];
  let session = '';
  const deleted = new Set<string>();
  const url = await serve((request, text, cookies, reply) => {
    if (isLogin(request)) {
      if (!loggedIn(text)) return reply(422, { error: 'bad credentials' });
      session = fresh();
      const flash = fresh();
      const onboarding = fresh();
      app.issued.push(session, flash, onboarding);
      return reply(204, {}, [
        `sid=${session}; Path=/; HttpOnly`,
        `flash=${flash}; Path=/`,
        `onboarding=${onboarding}; Path=/; Max-Age=86400`,
      ]);
    }
    if (!session || cookies.sid !== session) return reply(401, { error: 'log in first' });
    const carried = [...deleted].filter((name) => name in cookies);
    if (carried.length > 0) {
      app.stale.push(...carried);
      if (isWrite(request)) app.writes.push(400);
      return reply(400, { error: `stale cookie ${carried.join(', ')}: it was deleted` });
    }
    if (isWrite(request)) app.writes.push(201);
    const set =
      isWrite(request) && deleted.size === 0
        ? ['flash=gone; Path=/; Max-Age=0', 'onboarding=done; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']
        : [];
    if (set.length > 0) for (const name of ['flash', 'onboarding']) deleted.add(name);
    widgets(request, text, list, reply, '', set);
  });
  return { ...app, url };
}

/** A rolling session: every answer sets a new sid, earlier ones stay valid. Records the sid each write carried. */
async function rollingSessionApp(): Promise<App & { carried: string[] }> {
  const app: Omit<App, 'url'> & { carried: string[] } = { writes: [], issued: [], carried: [] };
  const list: Widget[] = [];
  const valid = new Set<string>();
  const roll = () => {
    const sid = fresh();
    valid.add(sid);
    app.issued.push(sid);
    return sid;
  };
  const url = await serve((request, text, cookies, reply) => {
    if (isLogin(request)) {
      if (!loggedIn(text)) return reply(422, { error: 'bad credentials' });
      return reply(204, {}, [`sid=${roll()}; Path=/; HttpOnly`]);
    }
    if (!valid.has(cookies.sid ?? '')) return reply(401, { error: 'log in first' });
    if (isWrite(request)) {
      app.writes.push(201);
      app.carried.push(cookies.sid as string);
    }
    const sid = roll();
    widgets(request, text, list, reply, sid, [`sid=${sid}; Path=/; HttpOnly`]);
  });
  return { ...app, url };
}

/** Every form a cookie value may travel in: as set, URL-encoded, decoded. */
function formsOf(values: string[]): string[] {
  return [
    ...new Set(values.flatMap((value) => [value, encodeURIComponent(value), decodeURIComponent(value)])),
  ];
}

function expectNowhere(values: string[], place: string, text: string): void {
  expect(values.length).toBeGreaterThan(0);
  const leaked = formsOf(values).filter((form) => text.includes(form));
  expect(leaked, `cookie values in ${place}`).toEqual([]);
}

describe('cookies an API response sets during the run, kept as a browser keeps them', () => {
  it('a session id rotated on every write: each write carries the newest, and none of them is written anywhere', async () => {
    const app = await rotatingSessionApp();
    const { run, written, said } = await fishWidgetsWith(
      app.url,
      { url: '/login', json: credentials },
      { request: '3 widgets', flags: ['--concurrency', '1'] },
    );
    expect(run.code, said).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'success' });
    expect(app.writes).toEqual([201, 201, 201]);
    expect(app.issued).toHaveLength(4);
    // The app echoed each new id in its create's body: the ledger holds those bodies, scrubbed.
    expect(written).toContain('trace');
    expectNowhere(app.issued, 'the ledger', written);
    expectNowhere(app.issued, 'stdout/stderr', said);
  });

  it('an XSRF-TOKEN renewed on every response: each write echoes the latest in X-XSRF-TOKEN, and no token is written anywhere', async () => {
    const app = await rotatingXsrfApp();
    const { run, written, said } = await fishWidgetsWith(
      app.url,
      { url: '/login', loginPage: '/sanctum/csrf-cookie', json: credentials },
      { request: '3 widgets', flags: ['--concurrency', '1'] },
    );
    expect(run.code, said).toBe(0);
    expect(app.writes).toEqual([201, 201, 201]);
    expectNowhere(app.issued, 'the ledger', written);
    expectNowhere(app.issued, 'stdout/stderr', said);
  });

  it('cookies the server deletes (Max-Age=0, Expires in the past) are sent no more', async () => {
    const app = await deletingApp();
    const { run, written, said } = await fishWidgetsWith(
      app.url,
      { url: '/login', json: credentials },
      { request: '3 widgets', flags: ['--concurrency', '1'] },
    );
    expect(run.code, said).toBe(0);
    expect(app.stale).toEqual([]);
    expect(app.writes).toEqual([201, 201, 201]);
    expectNowhere(app.issued, 'the ledger', written);
    expectNowhere(app.issued, 'stdout/stderr', said);
  });

  it('a rolling session under --concurrency 4: writes go on with renewed ids, the last answer wins, none is written anywhere', async () => {
    const app = await rollingSessionApp();
    const { run, written, said } = await fishWidgetsWith(
      app.url,
      { url: '/login', json: credentials },
      { request: '8 widgets', flags: ['--concurrency', '4'] },
    );
    expect(run.code, said).toBe(0);
    expect(app.writes).toEqual(Array(8).fill(201));
    const [fromLogin] = app.issued;
    // Writes after the first answers carry an id renewed mid-run, not the login's.
    expect(app.carried.filter((sid) => sid !== fromLogin).length).toBeGreaterThan(0);
    expect(new Set(app.carried).size).toBeGreaterThan(1);
    expectNowhere(app.issued, 'the ledger', written);
    expectNowhere(app.issued, 'stdout/stderr', said);
  });
});
