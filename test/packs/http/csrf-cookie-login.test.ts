import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { logIn } from '../../../src/packs/http/client/login-recipe.js';
import { answerWidgets, cookiesOf, fishWidgetsWith, widgetServers } from './widget-login-app.js';

// Frameworks that guard the login form itself and send the CSRF token in a cookie for the page's
// script to echo in a header (double submit): Django (`csrftoken` cookie, hidden
// `csrfmiddlewaretoken` field, `X-CSRFToken`; the token rotates at login) and Laravel
// (`GET /sanctum/csrf-cookie` sets an URL-encoded `XSRF-TOKEN`, echoed as `X-XSRF-TOKEN`).
// Each app below refuses a login or a write without them, as the real ones do.

type Flavour = 'django' | 'laravel';

interface CsrfApp {
  url: string;
  /** Status of every write the app answered, in order. */
  writes: number[];
  widgets: { id: number; name: string }[];
}

const servers = widgetServers();

async function csrfApp(flavour: Flavour): Promise<CsrfApp> {
  const app: Omit<CsrfApp, 'url'> = { writes: [], widgets: [] };
  const sessions = new Map<string, string>(); // session id → the CSRF token it holds
  let anonymousToken = '';
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      const cookies = cookiesOf(request);
      const json = (status: number, body: unknown, headers: Record<string, string | string[]> = {}) =>
        response
          .writeHead(status, { 'content-type': 'application/json', ...headers })
          .end(JSON.stringify(body));
      const csrfCookie = flavour === 'django' ? 'csrftoken' : 'XSRF-TOKEN';
      const csrfHeader = flavour === 'django' ? 'x-csrftoken' : 'x-xsrf-token';
      const sessionCookie = flavour === 'django' ? 'sessionid' : 'laravel_session';
      const loginPage = flavour === 'django' ? '/accounts/login/' : '/sanctum/csrf-cookie';
      // A token with characters that need encoding in a cookie (Laravel's do: base64 with `=`).
      const setCsrf = (token: string) => `${csrfCookie}=${encodeURIComponent(token)}; Path=/`;
      if (request.method === 'GET' && request.url === loginPage) {
        anonymousToken = `${randomBytes(9).toString('base64')}+/=`;
        if (flavour === 'django')
          response
            .writeHead(200, { 'content-type': 'text/html', 'set-cookie': setCsrf(anonymousToken) })
            .end(
              `<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="${anonymousToken.replace('+', '&#43;')}"><input name="username"></form>`,
            );
        else response.writeHead(204, { 'set-cookie': setCsrf(anonymousToken) }).end();
        return;
      }
      if (
        request.method === 'POST' &&
        request.url === (flavour === 'django' ? '/accounts/login/' : '/login')
      ) {
        const sent =
          flavour === 'django'
            ? Object.fromEntries(new URLSearchParams(text))
            : (JSON.parse(text) as Record<string, string>);
        const echoed = flavour === 'django' ? sent.csrfmiddlewaretoken : request.headers[csrfHeader];
        const cookieToken = decodeURIComponent(cookies[csrfCookie] ?? '');
        if (!anonymousToken || echoed !== anonymousToken || cookieToken !== anonymousToken) {
          json(403, { error: 'CSRF verification failed' });
          return;
        }
        if (sent.username !== 'me' || sent.password !== 'pw-for-test') {
          json(422, { error: 'bad credentials' });
          return;
        }
        const id = randomBytes(8).toString('hex');
        // Django rotates the CSRF token at login; the old one is no longer accepted.
        const token = flavour === 'django' ? `${randomBytes(9).toString('base64')}=` : anonymousToken;
        sessions.set(id, token);
        response
          .writeHead(flavour === 'django' ? 302 : 204, {
            'set-cookie': [`${sessionCookie}=${id}; Path=/; HttpOnly`, setCsrf(token)],
            ...(flavour === 'django' ? { location: '/' } : {}),
          })
          .end();
        return;
      }
      const token = sessions.get(cookies[sessionCookie] ?? '');
      if (token === undefined) {
        json(401, { error: 'log in first' });
        return;
      }
      if (request.method === 'POST' && request.url === '/api/widgets') {
        const ok = request.headers[csrfHeader] === token;
        app.writes.push(ok ? 201 : 403);
        if (!ok) {
          json(403, { error: 'CSRF token mismatch' });
          return;
        }
      }
      answerWidgets(request, text, app.widgets, json);
    });
  });
  return { ...app, url: await servers.listen(server) } as CsrfApp;
}

const credentials = { username: 'me', password: '${TALLY_APP_PASSWORD}' };

describe('a login guarded by CSRF, and writes by a CSRF cookie echoed in a header', () => {
  it('Django: the login page’s hidden field and cookie go with the form; writes carry the rotated X-CSRFToken', async () => {
    const app = await csrfApp('django');
    const { run, said } = await fishWidgetsWith(app.url, {
      url: '/accounts/login/',
      loginPage: '/accounts/login/',
      form: credentials,
    });
    expect(run.code, said).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'success' });
    expect(app.writes).toEqual([201, 201]);
  });

  it('Laravel: /sanctum/csrf-cookie first, then the JSON login and the writes with the decoded X-XSRF-TOKEN', async () => {
    const app = await csrfApp('laravel');
    const { run, said } = await fishWidgetsWith(app.url, {
      url: '/login',
      loginPage: '/sanctum/csrf-cookie',
      json: credentials,
    });
    expect(run.code, said).toBe(0);
    expect(app.writes).toEqual([201, 201]);
  });

  it('without loginPage the guarded login is refused, and says so before any write', async () => {
    const app = await csrfApp('django');
    const { run, said } = await fishWidgetsWith(app.url, { url: '/accounts/login/', form: credentials });
    expect(run.code, said).not.toBe(0);
    const { error } = JSON.parse(run.stdout) as { error: { code: string; message: string } };
    expect(error).toMatchObject({ code: 'LOGIN_FAILED' });
    expect(error.message).toContain('answered 403');
    expect(app.writes).toEqual([]);
  });
});

describe('a hostile login page', () => {
  it('of 200,000 unclosed hidden CSRF inputs is read in one pass: the login goes on (a regex per tag would take hours)', async () => {
    const page = '<input type=hidden name=_token value=x '.repeat(200_000);
    const server = createServer((request, response) => {
      if (request.method === 'GET') response.writeHead(200, { 'content-type': 'text/html' }).end(page);
      else response.writeHead(204, { 'set-cookie': 'session=s1; Path=/' }).end();
    });
    const url = await servers.listen(server);
    const session = await logIn(
      url,
      {
        url: '/login',
        loginPage: '/login',
        form: { user: 'me' },
        csrfHeader: 'x-csrf-token',
        method: 'POST',
      },
      {},
    );
    expect(session.jar.get('session')).toBe('s1');
  }, 60_000);
});
