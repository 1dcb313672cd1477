/**
 * A small stand-alone REST app like most SQL-backed ones: posts and comments, each collection
 * numbering its ids from 1 (so `post 1` and `comment 1` are both normal). No login. Optionally
 * answers 403 instead of 404 for a missing item (as Directus does), to test cleanup's rule.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Post {
  id: number;
  title: string;
  slug?: string;
}

export interface Comment {
  id: number;
  postId: number;
  body: string;
}

export interface RestApp {
  url: string;
  close(): Promise<void>;
}

export interface RestAppOptions {
  /** Status for a missing item on GET/DELETE (default 404). */
  missingStatus?: 403 | 404;
  /**
   * POST /posts is get-or-create by `slug` (as many upsert APIs are): a post already holding
   * the body's slug is answered 200 with that post, nothing made.
   */
  upsert?: boolean;
  /** Status of a successful create (default 201; many real APIs answer 200). */
  createStatus?: 200 | 201;
  /** Send a `Location` header naming a created item. */
  location?: boolean;
}

function send(
  response: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (body === undefined) {
    response.writeHead(status, headers);
    response.end();
    return;
  }
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export async function startRestApp(options: RestAppOptions = {}): Promise<RestApp> {
  const posts = new Map<number, Post>();
  const comments = new Map<number, Comment>();
  const next = { posts: 1, comments: 1 };
  const missing = options.missingStatus ?? 404;
  const created = (collection: string, item: Post | Comment): [number, unknown, Record<string, string>] => [
    options.createStatus ?? 201,
    item,
    options.location ? { location: `/${collection}/${item.id}` } : {},
  ];

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://rest.local');
    const method = request.method ?? 'GET';
    const [collection, idText, extra] = url.pathname.split('/').filter(Boolean);
    if ((collection !== 'posts' && collection !== 'comments') || extra !== undefined)
      return send(response, 404, { error: 'no such route' });
    const store: Map<number, Post | Comment> = collection === 'posts' ? posts : comments;
    if (idText === undefined) {
      if (method === 'GET') {
        const postId = url.searchParams.get('postId');
        const all = [...store.values()].filter(
          (item) => postId === null || String((item as Comment).postId) === postId,
        );
        return send(response, 200, all);
      }
      if (method !== 'POST') return send(response, 405, { error: `${method} not allowed` });
      const body = await readJson(request);
      if (!body) return send(response, 400, { error: 'body must be a JSON object' });
      if (collection === 'posts') {
        if (typeof body.title !== 'string' || !body.title.trim())
          return send(response, 422, { error: 'title is required' });
        const slug = typeof body.slug === 'string' ? body.slug : undefined;
        const existing =
          options.upsert && slug ? [...posts.values()].find((p) => p.slug === slug) : undefined;
        if (existing) return send(response, 200, existing);
        const post: Post = { id: next.posts++, title: body.title, ...(slug ? { slug } : {}) };
        posts.set(post.id, post);
        return send(response, ...created('posts', post));
      }
      const postId = Number(body.postId);
      if (!posts.has(postId)) return send(response, 422, { error: `no post ${String(body.postId)}` });
      const comment: Comment = {
        id: next.comments++,
        postId,
        body: typeof body.body === 'string' ? body.body : '',
      };
      comments.set(comment.id, comment);
      return send(response, ...created('comments', comment));
    }
    const id = Number(idText);
    const item = store.get(id);
    if (!item) return send(response, missing, { error: missing === 403 ? 'Forbidden' : 'Not found' });
    if (method === 'GET') return send(response, 200, item);
    if (method === 'DELETE') {
      store.delete(id);
      return send(response, 204);
    }
    if (method === 'PATCH' || method === 'PUT') {
      const body = (await readJson(request)) ?? {};
      Object.assign(item, body, { id });
      return send(response, 200, item);
    }
    return send(response, 405, { error: `${method} not allowed` });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
