import { isTallyError, TallyError, ToolRejectedError } from '../../../core/errors.js';
import { monotonicMs } from '../../../core/monotonic-clock.js';
import { parseJsonExact } from '../../../core/parse-json-exact.js';
import { decodePercent } from '../../../core/percent-decoding.js';
import { type ErrorCategory, errorCategory } from './error-category.js';
import { extractIds } from './extract-ids.js';
import { failureInBody } from './failure-in-body.js';
import { fetchTransport, type Transport, type TransportResponse } from './http-transport.js';
import { currentCsrf, keepResponseCookies } from './keep-response-cookies.js';
import { defaultTransport } from './lean-http-transport.js';
import { type LiveSession, sessionSecrets } from './login-recipe.js';

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
  /** Lost creates this read found again (GET only). */
  reconciled?: Reconciled[];
  /**
   * What this run knew, before this response, of the resource a successful POST's id names
   * (`/suites` + `7` → `/suites/7`): `existing` when a read of this run listed or returned it,
   * or an earlier write of this run made or changed it; `absent` when a read of this run found
   * it missing (404/410) or an unfiltered read of its collection did not list it. Undefined
   * when the run knew nothing of it.
   */
  before?: 'existing' | 'absent';
  /** Listed items carrying a cleaned run's marker (GET only, with `markedBy`). */
  marked?: MarkedItem[];
  /** The first answer was 401; the run logged in again and this is the answer to the same request resent. */
  renewedSession?: true;
}

/** Canonical form of a resource path: no trailing slash, percent-decoding of unreserved text. */
/** A path's last segment, decoded (`/api/gizmos` → `gizmos`): the collection a write went to. */
function lastSegment(path: string): string | undefined {
  const last = path.split('/').filter(Boolean).at(-1);
  return last === undefined ? undefined : decodePercent(last);
}

export function canonicalPath(path: string): string {
  const bare = (path.split(/[?#]/)[0] ?? path).replace(/\/+$/, '') || '/';
  return bare
    .split('/')
    .map((segment) => {
      try {
        return encodeURIComponent(decodeURIComponent(segment));
      } catch (error) {
        if (!(error instanceof URIError)) throw error;
        return segment;
      }
    })
    .join('/');
}

/** The list a read returned: a bare array, or one wrapped in `data`/`items`/`results`. */
export function listOf(body: unknown): Record<string, unknown>[] | undefined {
  const pick = (value: unknown) =>
    Array.isArray(value)
      ? value.filter((item): item is Record<string, unknown> => Boolean(item) && typeof item === 'object')
      : undefined;
  if (Array.isArray(body)) return pick(body);
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    return pick(record.data) ?? pick(record.items) ?? pick(record.results);
  }
  return undefined;
}

export interface ApiClientOptions {
  baseUrl: string;
  /** Layer 1: auth headers from THIS capture session (never cookies). */
  captureAuth?: Record<string, string>;
  /** Layer 2: the live session (cookies for the origin, CSRF token); every response's Set-Cookie goes into its jar. */
  session?: LiveSession;
  /**
   * Told, before `send` returns, the values a response added to the session (a rotated session
   * cookie, a refreshed CSRF token): secrets from then on, to be scrubbed like the login's.
   */
  onSessionSecrets?: (values: string[]) => void;
  /**
   * Logs in again (the run's login recipe): an API answer of 401 after the session worked is
   * taken as the session having expired. See `renewAfterExpiry`.
   */
  renewSession?: () => Promise<LiveSession>;
  /** Layer 3: configured headers; they win. */
  headers?: Record<string, string>;
  /** Allow DELETE of entities this client did not create. */
  allowDelete?: boolean;
  /** Resource paths created by the run being cleaned up (`/items/articles/1`), read from its ledger. */
  created?: string[];
  /**
   * This run's unique marker, stamped into titles. A create whose response was lost is
   * recognised later by a read that finds an item carrying the same marked value.
   */
  marker?: string;
  /** Send through this fetch instead of node:http (fault injection, instrumentation). */
  fetch?: typeof fetch;
  /**
   * Cleanup by marker: the cleaned run's marker and, per collection it posted to (canonical
   * path), the body fields that carried it. A successful read of such a collection names
   * every listed item whose field carries the marker (`ApiResponse.marked`), and this client
   * may DELETE it: the run made it, even when its response never reached the ledger.
   */
  markedBy?: { marker: string; fields: Record<string, string[]> };
}

/** A listed item that carries a cleaned run's marker (see `ApiClientOptions.markedBy`). */
export interface MarkedItem {
  path: string;
  id: string;
  /** The field that carried the marker, and its value. */
  field: string;
  value: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A create whose response was lost (5xx, reset, timeout): the server may have made it. */
export interface LostCreate {
  collection: string;
  /** The request as sent, so a later find can name the failed call it recovers. */
  requestPath: string;
  body: Record<string, unknown>;
  /** Body fields whose value carries the run's marker. */
  marked: Record<string, string>;
  via: string;
  /** Why its id is unknown: `response lost` (none, or a 5xx), or `no id in the response` (a 2xx without one). */
  why: string;
}

/** A lost create found again by a read: the resource it made. */
export interface Reconciled {
  path: string;
  id: string;
  lostVia: string;
  lost: LostCreate;
  item: Record<string, unknown>;
}

/**
 * What one run has seen through the client. Kept per run (by the ledger run id the tools
 * pass), so a run that follows another on the same client (a recipe that fell back to the
 * model) never inherits its lost creates or its sightings.
 */
interface RunMemory {
  /** Resource paths seen existing: listed or returned by a read, or made/changed by a write. */
  existing: Set<string>;
  /** Resource paths seen missing: a read answered 404/410, or a write deleted them. */
  missing: Set<string>;
  /** Collection paths read in full (a list, no query string). */
  listed: Set<string>;
  lost: LostCreate[];
}

const itemPath = (collection: string, id: string) => `${collection}/${encodeURIComponent(id)}`;

/**
 * The HTTP client Fisherman's tools use. Origin-locked; headers layered capture auth <
 * live session < configuration; DELETE refused unless this client created the target.
 */
export class ApiClient {
  readonly origin: string;
  readonly baseUrl: string;
  private readonly created = new Set<string>();
  private readonly runs = new Map<string, RunMemory>();
  private readonly transport: Transport;
  /** Which login the session's values come from: bumped by each renewal (see renewAfterExpiry). */
  private sessionGeneration = 0;
  private renewing: Promise<void> | undefined;
  private renewalRefused = false;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.transport = options.fetch ? fetchTransport(options.fetch) : defaultTransport();
    for (const path of options.created ?? []) this.created.add(canonicalPath(path));
  }

  get marker(): string | undefined {
    return this.options.marker;
  }

  private memory(run: string): RunMemory {
    let memory = this.runs.get(run);
    if (!memory) {
      memory = { existing: new Set(), missing: new Set(), listed: new Set(), lost: [] };
      this.runs.set(run, memory);
    }
    return memory;
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
      const csrf = currentCsrf(session);
      if (csrf) headers[csrf.header] = csrf.token;
      if (session.token) headers[session.token.header] = session.token.value;
    }
    for (const [name, value] of Object.entries(this.options.headers ?? {}))
      headers[name.toLowerCase()] = value;
    return headers;
  }

  /** Security: DELETE only a resource URL this run created — the whole path, not its last segment. */
  private checkDelete(url: URL): void {
    if (this.options.allowDelete) return;
    if (!this.created.has(canonicalPath(url.pathname))) {
      throw new ToolRejectedError(
        'DELETE_REFUSED',
        `Refused: DELETE ${url.pathname} is not a resource this run created. Fisherman only deletes what it made (pass --allow-delete to override).`,
        { path: url.pathname },
      );
    }
  }

  private rememberLost(
    memory: RunMemory,
    method: string,
    url: URL,
    requestPath: string,
    body: unknown,
    via: string,
    why: string,
  ): void {
    const marker = this.options.marker;
    if (method !== 'POST' || !marker || !body || typeof body !== 'object') return;
    const marked: Record<string, string> = {};
    for (const [field, value] of Object.entries(body as Record<string, unknown>))
      if (typeof value === 'string' && value.includes(marker)) marked[field] = value;
    if (Object.keys(marked).length > 0)
      memory.lost.push({
        collection: canonicalPath(url.pathname),
        requestPath,
        body: body as Record<string, unknown>,
        marked,
        via,
        why,
      });
  }

  /**
   * Items of a collection the cleaned run posted to whose marked fields carry its marker —
   * at the start of a word, as the run wrote it (`Suite 3 · a1b2c3`, `qa+a1b2c31@…`), so a
   * value that merely contains the same hex digits elsewhere is not taken.
   */
  private markedIn(url: URL, body: unknown): MarkedItem[] {
    const markedBy = this.options.markedBy;
    if (!markedBy) return [];
    const collection = canonicalPath(url.pathname);
    const fields = markedBy.fields[collection];
    const list = listOf(body);
    if (!fields || !list) return [];
    const carries = new RegExp(`(^|[^0-9a-z])${escapeRegExp(markedBy.marker)}`, 'i');
    const found: MarkedItem[] = [];
    for (const item of list) {
      const field = fields.find((name) => typeof item[name] === 'string' && carries.test(item[name]));
      const id = field === undefined ? undefined : extractIds(item, undefined)[0];
      if (field === undefined || id === undefined) continue;
      const path = `${collection}/${encodeURIComponent(id)}`;
      this.created.add(path);
      found.push({ path, id, field, value: item[field] as string });
    }
    return found;
  }

  /** Lost creates whose marked values this read's items carry. */
  private reconcile(memory: RunMemory, url: URL, body: unknown): Reconciled[] {
    if (memory.lost.length === 0) return [];
    const path = canonicalPath(url.pathname);
    const list = listOf(body);
    const items = list ?? (body && typeof body === 'object' ? [body as Record<string, unknown>] : []);
    const found: Reconciled[] = [];
    for (const lost of [...memory.lost]) {
      const under = path === lost.collection || path.startsWith(`${lost.collection}/`);
      if (!under) continue;
      for (const candidate of items) {
        const item =
          candidate.data && typeof candidate.data === 'object' && !Array.isArray(candidate.data) && !list
            ? (candidate.data as Record<string, unknown>)
            : candidate;
        const id = extractIds(item, undefined)[0];
        const matches = Object.entries(lost.marked).every(([field, value]) => item[field] === value);
        if (id === undefined || !matches) continue;
        const resource = itemPath(lost.collection, id);
        found.push({ path: resource, id, lostVia: lost.via, lost, item });
        this.created.add(resource);
        memory.lost.splice(memory.lost.indexOf(lost), 1);
        break;
      }
    }
    return found;
  }

  /** What a successful read shows existing (or missing) in this run. */
  private noteRead(memory: RunMemory, url: URL, status: number, body: unknown): void {
    const path = canonicalPath(url.pathname);
    if (status === 404 || status === 410) {
      memory.missing.add(path);
      memory.existing.delete(path);
      return;
    }
    if (status < 200 || status >= 300) return;
    const list = listOf(body);
    if (!list) {
      memory.existing.add(path);
      memory.missing.delete(path);
      return;
    }
    // A filtered read (a query string) lists only some: it proves what exists, not what does not.
    if (!url.search) memory.listed.add(path);
    for (const item of list) {
      const id = extractIds(item, undefined)[0];
      if (id === undefined) continue;
      memory.existing.add(itemPath(path, id));
      memory.missing.delete(itemPath(path, id));
    }
  }

  /** What this run knew of a resource before a response named it. */
  private knownBefore(memory: RunMemory, resource: string): ApiResponse['before'] {
    if (memory.existing.has(resource)) return 'existing';
    const collection = resource.slice(0, resource.lastIndexOf('/')) || '/';
    if (memory.missing.has(resource) || memory.listed.has(collection)) return 'absent';
    return undefined;
  }

  /**
   * Sends one request. `run` is the ledger run it belongs to: lost creates and what the run
   * has seen existing are kept per run.
   */
  async send(request: ApiRequest, signal?: AbortSignal, run = ''): Promise<ApiResponse> {
    const method = request.method.toUpperCase();
    const url = this.resolve(request.path, request.query);
    if (method === 'DELETE') this.checkDelete(url);
    const memory = this.memory(run);
    const hasBody = request.body !== undefined && method !== 'GET' && method !== 'DELETE';
    const started = monotonicMs();
    const generation = this.sessionGeneration;
    let response = await this.exchange(url, method, request, hasBody, memory, signal);
    this.keepCookies(response);
    let renewedSession = false;
    if (response.status === 401 && (await this.renewAfterExpiry(generation))) {
      renewedSession = true;
      response = await this.exchange(url, method, request, hasBody, memory, signal);
      this.keepCookies(response);
      // A fresh session refused too: the 401 is no expiry (no right to this), and logging in
      // again for every request would only double them.
      if (response.status === 401) this.renewalRefused = true;
    }
    const text = response.text;
    let body: unknown = text;
    if (text && (response.header('content-type') ?? '').includes('json')) {
      try {
        body = parseJsonExact(text);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    const location = response.header('location') ?? undefined;
    // A redirect is not a success: the request was not carried out where it was sent. Nor is
    // a 2xx whose body says it failed ({"ok": false}, {"error": "not saved"}).
    const ok =
      response.status >= 200 &&
      response.status < 300 &&
      failureInBody(body, request.body, method) === undefined;
    // Ids only from a successful write's own response.
    const ids =
      ok && method !== 'GET' && method !== 'DELETE'
        ? extractIds(body, location, lastSegment(url.pathname))
        : [];
    const path = canonicalPath(url.pathname);
    let before: ApiResponse['before'];
    if (method === 'POST' && ids[0] !== undefined) {
      before = this.knownBefore(memory, itemPath(path, ids[0]));
      // An upsert that answered with a resource this run saw existing made nothing to delete.
      const upsert = before === 'existing' && response.status !== 201;
      for (const id of ids) {
        if (!upsert) this.created.add(itemPath(path, id));
        memory.existing.add(itemPath(path, id));
        memory.missing.delete(itemPath(path, id));
      }
    }
    if (ok && (method === 'PUT' || method === 'PATCH')) {
      if (method === 'PUT' && response.status === 201) this.created.add(path);
      memory.existing.add(path);
      memory.missing.delete(path);
    }
    if (ok && method === 'DELETE') {
      memory.existing.delete(path);
      memory.missing.add(path);
    }
    // A 5xx may have made it; so may a create accepted with no id Tally can read (202, an empty
    // body): either is found again by the next read of its collection, by the marker it carries.
    if (response.status >= 500 || (ok && method === 'POST' && ids.length === 0))
      this.rememberLost(
        memory,
        method,
        url,
        request.path,
        request.body,
        `${method} ${url.pathname} → ${response.status}`,
        response.status >= 500 ? 'response lost' : 'no id in the response',
      );
    const reconciled = ok && method === 'GET' ? this.reconcile(memory, url, body) : [];
    if (method === 'GET') this.noteRead(memory, url, response.status, body);
    const marked = ok && method === 'GET' ? this.markedIn(url, body) : [];
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
      durationMs: Math.round((monotonicMs() - started) * 100) / 100,
      ...(reconciled.length > 0 ? { reconciled } : {}),
      ...(before ? { before } : {}),
      ...(marked.length > 0 ? { marked } : {}),
      ...(renewedSession ? { renewedSession: true as const } : {}),
    };
  }

  /** One send of a request with the session's headers as they are now; a lost response is remembered and thrown. */
  private async exchange(
    url: URL,
    method: string,
    request: ApiRequest,
    hasBody: boolean,
    memory: RunMemory,
    signal: AbortSignal | undefined,
  ): Promise<TransportResponse> {
    try {
      return await this.transport(url, {
        method,
        headers: this.headersFor(url, hasBody),
        ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      // The request may have reached the server: a create can exist without its id.
      this.rememberLost(
        memory,
        method,
        url,
        request.path,
        request.body,
        `${method} ${url.pathname} → no response`,
        'response lost',
      );
      if (isTallyError(error) && error.code === 'RESPONSE_TOO_LARGE')
        throw new TallyError(
          'RESPONSE_TOO_LARGE',
          `${method} ${url.pathname}: ${error.message}. ${method === 'GET' ? 'Ask for less (a page, a filter).' : 'The server may have acted; lookup the collection before retrying.'}`,
          { method, path: url.pathname, ...error.details },
        );
      // fetch wraps the system error in `cause`; node:http throws it as it is.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const code = (error as { code?: unknown }).code;
      const aborted = error instanceof Error && error.name === 'AbortError';
      const reason = aborted
        ? 'This operation was aborted'
        : (cause?.code ??
          (typeof code === 'string' ? code : undefined) ??
          cause?.message ??
          (error instanceof Error ? error.message : String(error)));
      throw new TallyError(
        'NETWORK_ERROR',
        `${method} ${url.pathname} got no response (${reason}): ${method === 'GET' ? 'nothing was read' : 'the server may or may not have acted'}. Check that the app is running at ${this.origin}; after a lost create, lookup the collection before retrying.`,
        { method, path: url.pathname },
      );
    }
  }

  /** A response's Set-Cookie into the session, its new values made secrets before anything records it. */
  private keepCookies(response: TransportResponse): void {
    if (!this.options.session) return;
    const learned = keepResponseCookies(this.options.session, response.setCookies());
    if (learned.length > 0) this.options.onSessionSecrets?.(learned);
  }

  /**
   * After a 401 to a request sent with session `generation`: logs in again (once for requests
   * in flight together) and says whether to resend. A session renewed meanwhile by another
   * request is simply used. The new session replaces the old in place, its secrets made known
   * first. No renewal where there is no recipe, after a login that failed, or once a fresh
   * session was refused too.
   */
  private async renewAfterExpiry(generation: number): Promise<boolean> {
    const { renewSession, session } = this.options;
    if (!renewSession || !session || this.renewalRefused) return false;
    if (generation !== this.sessionGeneration) return true;
    this.renewing ??= (async () => {
      const fresh = await renewSession();
      this.options.onSessionSecrets?.(sessionSecrets(fresh));
      session.jar = fresh.jar;
      session.csrf = fresh.csrf;
      session.token = fresh.token;
      this.sessionGeneration += 1;
    })().finally(() => {
      this.renewing = undefined;
    });
    try {
      await this.renewing;
      return true;
    } catch {
      this.renewalRefused = true;
      return false;
    }
  }
}
