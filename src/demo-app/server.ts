import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleApi, writeReply } from './api.js';
import { parseBody, readBody, redirect, sendHtml, sendJson } from './http-helpers.js';
import { demoOpenApi } from './openapi.js';
import { loginPage, milestonesPage, projectPage, projectsPage, suitePage, suitesPage } from './pages.js';
import { SESSION_COOKIE, SessionStore } from './sessions.js';
import { createStore, type DemoStore } from './store.js';

export interface DemoAppOptions {
  port?: number;
  host?: string;
  email?: string;
  password?: string;
  /** Sees every request's method, path and raw headers (tests use it to check what was sent). */
  onRequest?: (request: {
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
  }) => void;
}

export interface DemoApp {
  url: string;
  store: DemoStore;
  server: Server;
  close: () => Promise<void>;
}

export const DEMO_EMAIL = 'demo@tally.test';
export const DEMO_PASSWORD = 'demo-password';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function route(
  request: IncomingMessage,
  response: ServerResponse,
  store: DemoStore,
  sessions: SessionStore,
  credentials: { email: string; password: string },
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://demo.local');
  const method = request.method ?? 'GET';
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const session = sessions.fromRequest(request);

  if (path === '/login') {
    if (method === 'GET') return sendHtml(response, 200, loginPage());
    if (method === 'POST') {
      const body = parseBody(await readBody(request), request.headers['content-type']) ?? {};
      if (body.email !== credentials.email || body.password !== credentials.password) {
        return sendHtml(response, 401, loginPage('Wrong email or password.'));
      }
      const created = sessions.create(credentials.email);
      return redirect(response, '/projects', {
        'set-cookie': `${SESSION_COOKIE}=${created.id}; Path=/; HttpOnly; SameSite=Lax`,
      });
    }
  }
  if (path === '/logout' && session) {
    sessions.destroy(session.id);
    return redirect(response, '/login', { 'set-cookie': `${SESSION_COOKIE}=; Path=/; Max-Age=0` });
  }

  if (path === '/api/openapi.json' && method === 'GET') return sendJson(response, 200, demoOpenApi());
  if (path.startsWith('/api/')) {
    if (!session) return sendJson(response, 401, { error: 'Login required: sign in at /login first' });
    if (WRITE_METHODS.has(method) && request.headers['x-csrf-token'] !== session.csrf) {
      return sendJson(response, 403, {
        error: 'Invalid CSRF token: send the token from meta[name="csrf-token"] as x-csrf-token',
      });
    }
    const text = await readBody(request);
    const body = parseBody(text, request.headers['content-type']);
    if (body === undefined) return sendJson(response, 400, { error: 'Body must be a JSON object' });
    const reply = handleApi(store, { method, path, query: url.searchParams, body, session });
    if (!reply) return sendJson(response, 405, { error: `${method} ${path} is not supported` });
    return writeReply(response, reply);
  }

  if (path === '/' || path === '/projects' || path.startsWith('/projects/')) {
    if (!session) return redirect(response, '/login');
    if (path === '/' || path === '/projects') return sendHtml(response, 200, projectsPage(store, session));
    const [, , slug, section, id] = path.split('/');
    const project = store.projects.find((candidate) => candidate.slug === slug);
    if (!project) return sendHtml(response, 404, '<h1>Not found</h1>');
    if (!section) return sendHtml(response, 200, projectPage(project, session));
    if (section === 'suites' && !id) return sendHtml(response, 200, suitesPage(project, session));
    if (section === 'suites' && id && /^\d+$/.test(id))
      return sendHtml(response, 200, suitePage(project, Number(id), session));
    if (section === 'milestones' && project.milestones_enabled)
      return sendHtml(response, 200, milestonesPage(project, session));
  }
  sendHtml(response, 404, '<h1>Not found</h1>');
}

/**
 * The demo target: a small test-management app with cookie-session login, a CSRF token in
 * a meta tag required as x-csrf-token on writes, a JSON API under /api, and UI pages whose
 * buttons make the XHR writes a browser capture records.
 */
export async function startDemoApp(options: DemoAppOptions = {}): Promise<DemoApp> {
  const store = createStore();
  const sessions = new SessionStore();
  const credentials = { email: options.email ?? DEMO_EMAIL, password: options.password ?? DEMO_PASSWORD };
  const server = createServer((request, response) => {
    options.onRequest?.({
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: request.headers,
    });
    route(request, response, store, sessions, credentials).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: `Internal error: ${String(error)}` });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    store,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
