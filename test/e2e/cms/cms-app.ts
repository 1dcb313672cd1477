// A small CMS on 127.0.0.1 shaped like Directus: a session cookie from a JSON login,
// `/items/{collection}` whose creates take one item or an array of items, `{ data }`
// envelopes, 403 for an item that does not exist, and its own OpenAPI document at
// /server/specs/oas. It checks what a real one would: required fields (nested too), unknown
// and read-only fields, a relation to an author that exists, unique emails, and refuses to
// delete an author that articles still point at.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';

export const CMS_EMAIL = 'admin@cms.test';
export const CMS_PASSWORD = 'cms-secret-pw';
export const CMS_SPEC = join(import.meta.dirname, 'cms.openapi.json');
const COOKIE = 'cms_session_token';

type Item = Record<string, unknown> & { id: number };

export interface CmsApp {
  url: string;
  items: { authors: Map<number, Item>; articles: Map<number, Item> };
  /** Every request to /items: method, path and the parsed body (for what Tally sent). */
  seen: { method: string; path: string; body: unknown }[];
  close(): Promise<void>;
}

const FIELDS = {
  authors: { required: ['name', 'email', 'settings'], allowed: ['name', 'email', 'bio', 'settings'] },
  articles: {
    required: ['title', 'status', 'author'],
    allowed: ['title', 'status', 'body', 'author', 'tags'],
  },
} as const;
const READ_ONLY = ['id', 'date_created', 'user_created'];
type Collection = keyof typeof FIELDS;

class Invalid extends Error {}

const send = (
  response: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const text = body === undefined ? undefined : JSON.stringify(body);
  // Content-Length, as Directus (Express's res.json) sends: Prism's proxy reads upstream
  // answers with node-fetch 2, whose chunked-ending check misfires on Node 22 ("Premature
  // close", node-fetch#1576) and turns a chunked 200 into its own 500.
  response.writeHead(status, {
    ...(text === undefined
      ? {}
      : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }),
    ...headers,
  });
  response.end(text);
};
const error = (response: ServerResponse, status: number, code: string, message: string) =>
  send(response, status, { errors: [{ message, extensions: { code } }] });

async function readBody(request: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of request) text += chunk;
  if (text === '') return undefined;
  return JSON.parse(text);
}

export async function startCmsApp(): Promise<CmsApp> {
  const sessions = new Set<string>();
  const items = { authors: new Map<number, Item>(), articles: new Map<number, Item>() };
  const seen: CmsApp['seen'] = [];
  const nextId = { authors: 1, articles: 1 };
  let url = '';

  const create = (collection: Collection, input: unknown): Item => {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      throw new Invalid(`an item of ${collection} must be an object`);
    const body = input as Record<string, unknown>;
    for (const field of Object.keys(body)) {
      if (READ_ONLY.includes(field)) throw new Invalid(`"${field}" is read-only`);
      if (!(FIELDS[collection].allowed as readonly string[]).includes(field))
        throw new Invalid(`field "${field}" does not exist in collection "${collection}"`);
    }
    for (const field of FIELDS[collection].required)
      if (body[field] === undefined || body[field] === null) throw new Invalid(`"${field}" is required`);
    if (collection === 'authors') {
      const settings = body.settings as Record<string, unknown>;
      if (typeof settings !== 'object' || !['en-US', 'de-DE', 'fr-FR'].includes(settings.locale as string))
        throw new Invalid('"settings.locale" must be one of en-US, de-DE, fr-FR');
      const notifications = settings.notifications as Record<string, unknown> | undefined;
      if (typeof notifications?.email !== 'boolean')
        throw new Invalid('"settings.notifications.email" is required');
      if (typeof body.email !== 'string' || !body.email.includes('@'))
        throw new Invalid('"email" is not an email');
      if ([...items.authors.values()].some((author) => author.email === body.email))
        throw new Invalid(`"email" must be unique: ${body.email} exists`);
    } else {
      // A relation: the author's id, or a whole new author created with the article.
      const author =
        typeof body.author === 'object' ? create('authors', body.author).id : (body.author as number);
      if (!items.authors.has(author)) throw new Invalid(`"author" ${String(body.author)} does not exist`);
      body.author = author;
      if (!['draft', 'published', 'archived'].includes(body.status as string))
        throw new Invalid('"status" must be draft, published or archived');
    }
    const id = nextId[collection]++;
    const item: Item = { ...body, id, date_created: new Date().toISOString() };
    items[collection].set(id, item);
    return item;
  };

  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0] as string;
    try {
      if (request.method === 'GET' && path === '/server/specs/oas') {
        const spec = JSON.parse(readFileSync(CMS_SPEC, 'utf8')) as { servers: { url: string }[] };
        spec.servers = [{ url }];
        return send(response, 200, spec);
      }
      if (request.method === 'POST' && path === '/auth/login') {
        const body = (await readBody(request)) as Record<string, unknown> | undefined;
        if (body?.email !== CMS_EMAIL || body?.password !== CMS_PASSWORD)
          return error(response, 401, 'INVALID_CREDENTIALS', 'Invalid user credentials.');
        const token = randomBytes(16).toString('hex');
        sessions.add(token);
        return send(
          response,
          200,
          { data: { expires: 900_000 } },
          {
            'set-cookie': `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax`,
          },
        );
      }
      const match = /^\/items\/(authors|articles)(?:\/(\d+))?$/.exec(path);
      if (!match) return error(response, 404, 'ROUTE_NOT_FOUND', `Route ${path} doesn't exist.`);
      const token = new RegExp(`${COOKIE}=([0-9a-f]+)`).exec(request.headers.cookie ?? '')?.[1];
      if (!token || !sessions.has(token))
        return error(response, 401, 'INVALID_CREDENTIALS', 'Invalid user credentials.');
      const collection = match[1] as Collection;
      const id = match[2] === undefined ? undefined : Number(match[2]);
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      seen.push({ method: request.method ?? '', path, body });
      if (id === undefined && request.method === 'GET')
        return send(response, 200, { data: [...items[collection].values()] });
      if (id === undefined && request.method === 'POST') {
        // Bulk or single, as the document says: an array creates each, an object one.
        if (Array.isArray(body))
          return send(response, 200, { data: body.map((entry) => create(collection, entry)) });
        return send(response, 200, { data: create(collection, body) });
      }
      const item = id === undefined ? undefined : items[collection].get(id);
      // Directus answers 403 for an item that does not exist (it does not say which).
      if (!item) return error(response, 403, 'FORBIDDEN', "You don't have permission to access this.");
      if (request.method === 'GET') return send(response, 200, { data: item });
      if (request.method === 'DELETE') {
        if (
          collection === 'authors' &&
          [...items.articles.values()].some((article) => article.author === item.id)
        )
          return error(response, 400, 'INVALID_FOREIGN_KEY', `articles still point at author ${item.id}`);
        items[collection].delete(item.id);
        return send(response, 204);
      }
      return error(response, 405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here`);
    } catch (failure) {
      if (failure instanceof Invalid || failure instanceof SyntaxError)
        return error(response, 400, 'INVALID_PAYLOAD', failure.message);
      throw failure;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    items,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
