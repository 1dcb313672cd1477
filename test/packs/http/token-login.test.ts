import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { answerWidgets, fishWidgetsWith, widgetServers } from './widget-login-app.js';

// Many APIs answer a login with a token, not a session cookie (`{"access_token": "…"}`), and want
// it back as `Authorization: Bearer …`. A login recipe takes it from the answer — at the path
// the recipe names, or at the usual names when the login set no cookie — sends it on every
// request of the run, and keeps it out of everything written.

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.live-session-7f3a9c.sig';

interface TokenApp {
  url: string;
  /** The authorization header of every write the app accepted or refused, in order. */
  writes: (string | undefined)[];
  widgets: { id: number; name: string }[];
}

const servers = widgetServers();

/** A widget API whose login answers `answer` (no cookie) and whose writes need `expected`. */
async function tokenApp(answer: unknown, expected: { header: string; value: string }): Promise<TokenApp> {
  const app: Omit<TokenApp, 'url'> = { writes: [], widgets: [] };
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      const json = (status: number, body: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.method === 'POST' && request.url === '/api/login') {
        const sent = JSON.parse(text) as { user?: string; password?: string };
        if (sent.user === 'me' && sent.password === 'pw-for-test') json(200, answer);
        else json(401, { error: 'bad credentials' });
        return;
      }
      const auth = request.headers[expected.header] as string | undefined;
      if (request.method === 'POST' && request.url === '/api/widgets') app.writes.push(auth);
      if (auth !== expected.value) {
        json(401, { error: 'unauthorized' });
        return;
      }
      answerWidgets(request, text, app.widgets, json);
    });
  });
  return { ...app, url: await servers.listen(server) } as TokenApp;
}

const login = { url: '/api/login', json: { user: 'me', password: '${TALLY_APP_PASSWORD}' } };

describe('a login that answers with a token', () => {
  it('at a usual name (access_token), with no cookie: sent as Bearer on every write, written nowhere', async () => {
    const app = await tokenApp(
      { access_token: TOKEN, token_type: 'bearer' },
      { header: 'authorization', value: `Bearer ${TOKEN}` },
    );
    const { run, written, said } = await fishWidgetsWith(app.url, login);
    expect(run.code, said).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'success' });
    expect(app.writes).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(app.widgets).toHaveLength(2);
    expect(run.stdout + run.stderr).not.toContain('live-session-7f3a9c');
    expect(written).not.toContain('live-session-7f3a9c');
  });

  it('at the path the recipe names, in the header and scheme it names', async () => {
    const app = await tokenApp(
      { data: { session: { jwt: TOKEN } } },
      { header: 'x-api-token', value: `Token ${TOKEN}` },
    );
    const { run, said } = await fishWidgetsWith(app.url, {
      ...login,
      token: 'data.session.jwt',
      tokenHeader: 'X-Api-Token',
      tokenScheme: 'Token',
    });
    expect(run.code, said).toBe(0);
    expect(app.writes).toEqual([`Token ${TOKEN}`, `Token ${TOKEN}`]);
  });

  it('neither a cookie nor a token: refused before any write, saying what was missing and what to write', async () => {
    const app = await tokenApp({ welcome: 'me' }, { header: 'authorization', value: `Bearer ${TOKEN}` });
    const { run, said } = await fishWidgetsWith(app.url, login);
    expect(run.code, said).not.toBe(0);
    const { error } = JSON.parse(run.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('LOGIN_FAILED');
    expect(error.message).toContain('set no cookie nor answered with a token');
    expect(error.message).toContain('name another with "token": "data.jwt"');
    expect(app.writes).toEqual([]);
  });

  it('a token path the answer does not hold: refused, naming the path', async () => {
    const app = await tokenApp(
      { access_token: TOKEN },
      { header: 'authorization', value: `Bearer ${TOKEN}` },
    );
    const { run, said } = await fishWidgetsWith(app.url, { ...login, token: 'data.jwt' });
    expect(run.code, said).not.toBe(0);
    const { error } = JSON.parse(run.stdout) as { error: { code: string; message: string } };
    expect(error).toMatchObject({ code: 'LOGIN_FAILED' });
    expect(error.message).toContain('has no token at "data.jwt"');
    expect(app.writes).toEqual([]);
  });
});
