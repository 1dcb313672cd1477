import { ToolRejectedError } from '../../../core/errors.js';
import { type ErrorCategory, errorCategory } from './error-category.js';
import { extractIds } from './extract-ids.js';
import type { LiveSession } from './login-recipe.js';

export interface ApiRequest {
  method: string;
  path: string;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
}

export interface ApiResponse {
  method: string;
  path: string;
  url: string;
  /** The HTTP status. Never taken from the body. */
  status: number;
  ok: boolean;
  category?: ErrorCategory;
  /** Ids this response returned (body id / data.id / Location), never from lists. */
  ids: string[];
  body: unknown;
  location?: string;
  durationMs: number;
}

export interface ApiClientOptions {
  baseUrl: string;
  /** Layer 1: auth headers from THIS capture session (never cookies). */
  captureAuth?: Record<string, string>;
  /** Layer 2: the live session (cookies for the origin, CSRF token). */
  session?: LiveSession;
  /** Layer 3: configured headers; they win. */
  headers?: Record<string, string>;
  /** Allow DELETE of entities this client did not create. */
  allowDelete?: boolean;
  /** Ids created earlier by the same run (cleanup reads them from the ledger). */
  created?: string[];
  fetch?: typeof fetch;
}

/**
 * The HTTP client Fisherman's tools use. Origin-locked; headers layered capture auth <
 * live session < configuration; DELETE refused unless this client created the target.
 */
export class ApiClient {
  readonly origin: string;
  readonly baseUrl: string;
  private readonly created = new Set<string>();

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    for (const id of options.created ?? []) this.created.add(id);
  }

  /** Security: resolves a path against the base URL and refuses any other origin before sending. */
  resolve(path: string, query?: ApiRequest['query']): URL {
    let url: URL;
    try {
      url =
        path.startsWith('/') && !path.startsWith('//') ? new URL(`${this.baseUrl}${path}`) : new URL(path);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      throw new ToolRejectedError(
        'PATH_INVALID',
        `"${path}" is not a path: pass one starting with / (for example /api/items).`,
        { path },
      );
    }
    if (url.origin !== this.origin) {
      throw new ToolRejectedError(
        'ORIGIN_LOCKED',
        `Refused: ${url.origin} is not the API origin ${this.origin}. Requests only go to the API's own origin; pass a path such as ${url.pathname}.`,
        { path, origin: url.origin },
      );
    }
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, String(value));
    return url;
  }

  headersFor(url: URL, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (hasBody) headers['content-type'] = 'application/json';
    Object.assign(headers, this.options.captureAuth ?? {});
    const session = this.options.session;
    if (session) {
      const cookie = session.jar.header(url.pathname);
      if (cookie) headers.cookie = cookie;
      if (session.csrf) headers[session.csrf.header] = session.csrf.token;
    }
    for (const [name, value] of Object.entries(this.options.headers ?? {}))
      headers[name.toLowerCase()] = value;
    return headers;
  }

  private checkDelete(url: URL): void {
    if (this.options.allowDelete) return;
    const target = url.pathname.split('/').filter(Boolean).at(-1);
    if (!target || !this.created.has(target)) {
      throw new ToolRejectedError(
        'DELETE_REFUSED',
        `Refused: DELETE ${url.pathname} targets "${target}", which this run did not create. Fisherman only deletes what it made (pass --allow-delete to override).`,
        { path: url.pathname },
      );
    }
  }

  async send(request: ApiRequest): Promise<ApiResponse> {
    const method = request.method.toUpperCase();
    const url = this.resolve(request.path, request.query);
    if (method === 'DELETE') this.checkDelete(url);
    const hasBody = request.body !== undefined && method !== 'GET' && method !== 'DELETE';
    const started = performance.now();
    const response = await (this.options.fetch ?? fetch)(url, {
      method,
      headers: this.headersFor(url, hasBody),
      redirect: 'manual',
      ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
    });
    const text = await response.text();
    let body: unknown = text;
    if (text && (response.headers.get('content-type') ?? '').includes('json')) {
      try {
        body = JSON.parse(text);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    const location = response.headers.get('location') ?? undefined;
    const ok = response.status < 400;
    // Ids only from a successful write's own response.
    const ids = ok && method !== 'GET' && method !== 'DELETE' ? extractIds(body, location) : [];
    if (method === 'POST') for (const id of ids) this.created.add(id);
    const category = errorCategory(response.status);
    return {
      method,
      path: url.pathname + url.search,
      url: url.href,
      status: response.status,
      ok,
      ...(category ? { category } : {}),
      ids,
      body,
      ...(location ? { location } : {}),
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    };
  }
}
