/**
 * Ground truth, measured outside Tally: the demo app and the small REST app through their
 * own HTTP APIs (plain fetch, our own login), and the file system (bytes, sha256, inode).
 * Nothing here reads Tally's result or ledger.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/demo-app/server.js';
import { BUNDLED_HAR, type HarEntry, harEntry, writeHar } from '../packs/http/har-fixtures.js';

export { BUNDLED_HAR, type HarEntry, harEntry, writeHar };

export const RECORDS_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'records');

// ---------------------------------------------------------------------------------------------
// HTTP worlds

export interface Resource {
  /** The project slug (demo app) or '' (an app without projects). */
  scope: string;
  collection: string;
  id: string;
  record: Record<string, unknown>;
}

/** Everything the API lists, keyed `scope|collection|id`. */
export type World = Map<string, Resource>;

const keyOf = (scope: string, collection: string, id: string) => `${scope}|${collection}|${id}`;

export interface HttpWorld {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  snapshot(): Promise<World>;
}

function dataOf(body: unknown): unknown {
  return body && typeof body === 'object' && !Array.isArray(body) && 'data' in body
    ? (body as { data: unknown }).data
    : body;
}

/** The demo app through its own API, logged in as its demo user — our own session, not Tally's. */
export class DemoWorld implements HttpWorld {
  private constructor(
    private readonly baseUrl: string,
    private readonly cookie: string,
    private readonly csrf: string,
  ) {}

  static async login(baseUrl: string): Promise<DemoWorld> {
    const login = await fetch(`${baseUrl}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: DEMO_EMAIL, password: DEMO_PASSWORD }).toString(),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    if (!cookie) throw new Error(`ground truth: demo login answered ${login.status} without a cookie`);
    const page = await fetch(`${baseUrl}/projects`, { headers: { cookie }, redirect: 'manual' });
    const csrf = /<meta\s+name="csrf-token"\s+content="([^"]+)"/.exec(await page.text())?.[1];
    if (!csrf) throw new Error('ground truth: no csrf-token meta on /projects');
    return new DemoWorld(baseUrl, cookie, csrf);
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        cookie: this.cookie,
        'x-csrf-token': this.csrf,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed };
  }

  /** Seeds data as another user of the app would: through the API, before the run. */
  async create(project: string, collection: string, body: Record<string, unknown>): Promise<string> {
    const { status, body: answer } = await this.call('POST', `/api/${project}/${collection}`, body);
    const id = (dataOf(answer) as { id?: unknown } | undefined)?.id;
    if (status !== 201 || id === undefined)
      throw new Error(`ground truth: seeding ${collection} answered ${status}: ${JSON.stringify(answer)}`);
    return String(id);
  }

  async snapshot(): Promise<World> {
    const world: World = new Map();
    for (const project of ['alpha-shop', 'beta-blog']) {
      for (const collection of ['suites', 'tests', 'milestones']) {
        const { status, body } = await this.call('GET', `/api/${project}/${collection}`);
        if (status !== 200) continue; // beta-blog has no milestones
        for (const record of dataOf(body) as Record<string, unknown>[]) {
          const id = String(record.id);
          world.set(keyOf(project, collection, id), { scope: project, collection, id, record });
        }
      }
    }
    return world;
  }
}

/** The small REST app (posts, comments; ids from 1 in each collection). */
export class RestWorld implements HttpWorld {
  constructor(private readonly baseUrl: string) {}

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body !== undefined ? { 'content-type': 'application/json' } : {},
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async create(collection: string, body: Record<string, unknown>): Promise<string> {
    const { status, body: answer } = await this.call('POST', `/${collection}`, body);
    // An app that answers 200 on create (see RestAppOptions.createStatus) seeds as well.
    if (status !== 201 && status !== 200)
      throw new Error(`ground truth: seeding ${collection} answered ${status}`);
    return String((answer as { id: unknown }).id);
  }

  async snapshot(): Promise<World> {
    const world: World = new Map();
    for (const collection of ['posts', 'comments']) {
      const { body } = await this.call('GET', `/${collection}`);
      for (const record of body as Record<string, unknown>[]) {
        const id = String(record.id);
        world.set(keyOf('', collection, id), { scope: '', collection, id, record });
      }
    }
    return world;
  }
}

export interface WorldDiff {
  created: Resource[];
  deleted: Resource[];
  updated: Resource[];
}

export function diffWorlds(before: World, after: World): WorldDiff {
  const created: Resource[] = [];
  const updated: Resource[] = [];
  const deleted: Resource[] = [];
  for (const [key, resource] of after) {
    const old = before.get(key);
    if (!old) created.push(resource);
    else if (JSON.stringify(old.record) !== JSON.stringify(resource.record)) updated.push(resource);
  }
  for (const [key, resource] of before) if (!after.has(key)) deleted.push(resource);
  return { created, deleted, updated };
}

const describe = (resource: Resource) =>
  `${resource.scope ? `${resource.scope}/` : ''}${resource.collection}/${resource.id}`;

/** A type word as a person writes it → the collection it names (our own table, not Tally's rules). */
export function collectionOf(type: string | undefined): string | undefined {
  if (!type) return undefined;
  const words = type
    .toLowerCase()
    .trim()
    .split(/[\s_-]+/);
  const joined = words.join(' ').replace(/s$/, '');
  const table: Record<string, string> = {
    suite: 'suites',
    test: 'tests',
    'test case': 'tests',
    testcase: 'tests',
    milestone: 'milestones',
    post: 'posts',
    comment: 'comments',
    widget: 'widgets',
    gadget: 'gadgets',
  };
  return table[joined];
}

export interface FishRequest {
  scope: string;
  parent: { collection: string; count: number };
  child?: { collection: string; count: number; link: string };
  /**
   * "3 tests" names no suite: creating the one container the items need is allowed (issue 11),
   * at most `max`, and only when every new item links to a container that exists after the run.
   */
  container?: { collection: string; max: number; link: string };
}

/** Why a Fisherman request is not met by what the API now holds (empty: it is met). */
export function unmetFishRequest(before: World, after: World, request: FishRequest): string[] {
  const { created } = diffWorlds(before, after);
  const reasons: string[] = [];
  const outside = created.filter((resource) => resource.scope !== request.scope);
  if (outside.length > 0)
    reasons.push(`created outside ${request.scope || 'the app'}: ${outside.map(describe).join(', ')}`);
  const inside = created.filter((resource) => resource.scope === request.scope);
  const parents = inside.filter((resource) => resource.collection === request.parent.collection);
  if (parents.length !== request.parent.count)
    reasons.push(
      `${request.parent.count} new ${request.parent.collection} requested, the API shows ${parents.length}`,
    );
  const wanted = new Set([request.parent.collection, request.child?.collection]);
  const container = request.container;
  const containers = container
    ? inside.filter((resource) => resource.collection === container.collection)
    : [];
  if (container && containers.length > container.max)
    reasons.push(
      `${containers.length} new ${container.collection} made for the items, at most ${container.max} needed`,
    );
  if (container && containers.length > 0) {
    const ids = new Set(containers.map((resource) => resource.id));
    const unlinked = parents.filter((resource) => !ids.has(String(resource.record[container.link])));
    if (unlinked.length > 0 && unlinked.length === parents.length)
      reasons.push(`a new ${container.collection} was made but no new item uses it`);
  }
  const extra = inside.filter(
    (resource) => !wanted.has(resource.collection) && resource.collection !== container?.collection,
  );
  if (extra.length > 0) reasons.push(`unrequested types created: ${extra.map(describe).join(', ')}`);
  const child = request.child;
  if (child) {
    const children = inside.filter((resource) => resource.collection === child.collection);
    for (const parent of parents) {
      const mine = children.filter((resource) => String(resource.record[child.link]) === parent.id);
      if (mine.length !== child.count)
        reasons.push(
          `${describe(parent)} has ${mine.length} new ${child.collection}, ${child.count} requested`,
        );
    }
    const orphans = children.filter(
      (resource) => !parents.some((parent) => parent.id === String(resource.record[child.link])),
    );
    if (orphans.length > 0)
      reasons.push(
        `${orphans.map(describe).join(', ')} linked to ${[...new Set(orphans.map((o) => String(o.record[child.link])))].join(', ')}, not to a parent made by this run`,
      );
  }
  return reasons;
}

export interface HttpClaim {
  type?: string;
  id?: string | number;
  title?: string;
}

/**
 * Why a claim `created <type> <id> "title"` is false in the world (empty: it is true). With the
 * run's `marker`, a title is also true of an item whose title is that title plus ` · marker`
 * (the stamp Tally adds to a create's title; the marker is read from the run's prompt).
 */
export function falseHttpClaim(before: World, after: World, claim: HttpClaim, marker?: string): string[] {
  const { created } = diffWorlds(before, after);
  const id = String(claim.id ?? '');
  const collection = collectionOf(claim.type);
  const label = `claim ${claim.type ?? '?'} ${id}`;
  if (claim.type && !collection) return [`${label}: no collection of that type exists`];
  const matches = created.filter(
    (resource) => resource.id === id && (!collection || resource.collection === collection),
  );
  if (matches.length === 0) {
    const existed = [...before.values()].some(
      (resource) => resource.id === id && (!collection || resource.collection === collection),
    );
    return [`${label}: not created by this run${existed ? ' (it existed before the run)' : ''}`];
  }
  const match = matches[0] as Resource;
  const titles =
    claim.title === undefined ? [] : [claim.title, ...(marker ? [`${claim.title} · ${marker}`] : [])];
  if (claim.title !== undefined && !titles.includes(match.record.title as string))
    return [`${label}: title "${claim.title}" claimed, the API says "${String(match.record.title)}"`];
  return [];
}

/** Reads an item of a Tally result as a resource reference, whatever spelling it uses. */
export function itemRef(item: Record<string, unknown>): { collection?: string; id: string; scope?: string } {
  const target = String(item.id ?? item.target ?? '');
  const collection = collectionOf(typeof item.type === 'string' ? item.type : undefined);
  if (target.includes('/')) {
    const segments = target.split('?')[0]?.split('/').filter(Boolean) ?? [];
    const id = segments.at(-1) ?? '';
    const fromPath = segments.at(-2);
    return {
      id,
      ...(fromPath ? { collection: fromPath } : collection ? { collection } : {}),
      ...(segments.length >= 3 ? { scope: segments.at(-3) as string } : {}),
    };
  }
  const spaced = /^([a-z][a-z _-]*?)\s+(\S+)$/i.exec(target);
  if (spaced) return { id: spaced[2] as string, collection: collectionOf(spaced[1]) ?? collection ?? '' };
  return { id: target, ...(collection ? { collection } : {}) };
}

/** Why the items Tally reports as verified are not all true in the world (empty: all true). */
export function falseHttpItems(before: World, after: World, items: Record<string, unknown>[]): string[] {
  const { created, updated, deleted } = diffWorlds(before, after);
  const reasons: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const ref = itemRef(item);
    const effect = String(item.effect ?? 'created');
    const pool = effect.startsWith('updated') ? updated : effect.startsWith('deleted') ? deleted : created;
    const matches = pool.filter(
      (resource) =>
        resource.id === ref.id &&
        (!ref.collection || resource.collection === ref.collection) &&
        (!ref.scope || resource.scope === ref.scope || !['alpha-shop', 'beta-blog'].includes(ref.scope)),
    );
    const label = `reported item ${String(item.type ?? '')} ${String(item.target)}`;
    if (matches.length === 0) {
      reasons.push(`${label}: the API shows no such ${effect.split(' ')[0]} resource`);
      continue;
    }
    if (!ref.collection && matches.length > 1) {
      reasons.push(`${label}: ambiguous, ${matches.map(describe).join(' and ')} share the id`);
      continue;
    }
    const match = matches[0] as Resource;
    const key = describe(match);
    if (seen.has(key)) reasons.push(`${label}: reported twice (one resource, ${key})`);
    seen.add(key);
    if (typeof item.title === 'string' && match.record.title !== item.title)
      reasons.push(`${label}: title "${item.title}", the API says "${String(match.record.title)}"`);
  }
  return reasons;
}

// ---------------------------------------------------------------------------------------------
// Captures (HAR): the shared builders (no vitest import).

/**
 * The bundled demo HAR with every create's captured body made opaque (not JSON): the
 * deterministic tier parses the request but has no example to replay, so the model tier
 * takes it — while Tally still knows the request's structure.
 */
export function modelOnlyDemoHar(dir: string): string {
  const har = JSON.parse(readFileSync(BUNDLED_HAR, 'utf8')) as { log: { entries: HarEntry[] } };
  return writeHar(dir, 'model-only.har', opaqueCreates(har.log.entries));
}

const REST_ORIGIN = 'http://127.0.0.1:9';

/** Makes every create's captured body opaque (not JSON): no example the deterministic tier can replay. */
function opaqueCreates(entries: HarEntry[]): HarEntry[] {
  for (const entry of entries) {
    if (entry.request.method === 'POST' && entry.request.postData && !entry.request.url.endsWith('/login')) {
      entry.request.postData = { mimeType: 'text/plain', text: 'opaque' };
      entry.request.headers = entry.request.headers.map((header) =>
        header.name.toLowerCase() === 'content-type' ? { name: header.name, value: 'text/plain' } : header,
      );
    }
  }
  return entries;
}

/**
 * A HAR recorded against the small REST app (on another port): a post, a comment on it,
 * reads and a delete. `opaque`: the creates' bodies are not JSON, so the deterministic tier
 * parses the request but cannot replay it, and the model tier takes over.
 */
export function restHar(dir: string, options: { opaque?: boolean } = {}): string {
  const entries = [
    harEntry('GET', `${REST_ORIGIN}/posts`, 200, { response: [], at: '2026-11-01T10:00:00.000Z' }),
    harEntry('POST', `${REST_ORIGIN}/posts`, 201, {
      body: { title: 'Hello' },
      response: { id: 1, title: 'Hello' },
      at: '2026-11-01T10:00:01.000Z',
    }),
    harEntry('GET', `${REST_ORIGIN}/posts/1`, 200, {
      response: { id: 1, title: 'Hello' },
      at: '2026-11-01T10:00:02.000Z',
    }),
    harEntry('POST', `${REST_ORIGIN}/comments`, 201, {
      body: { postId: 1, body: 'Nice post' },
      response: { id: 1, postId: 1, body: 'Nice post' },
      at: '2026-11-01T10:00:03.000Z',
    }),
    harEntry('GET', `${REST_ORIGIN}/comments`, 200, {
      response: [{ id: 1, postId: 1, body: 'Nice post' }],
      at: '2026-11-01T10:00:04.000Z',
    }),
    harEntry('DELETE', `${REST_ORIGIN}/comments/1`, 204, { at: '2026-11-01T10:00:05.000Z' }),
  ];
  return options.opaque
    ? writeHar(dir, 'rest-model-only.har', opaqueCreates(entries))
    : writeHar(dir, 'rest.har', entries);
}

// ---------------------------------------------------------------------------------------------
// The file system

export interface FileState {
  bytes: number;
  sha256: string;
  ino: number;
  text: string;
}

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** Every regular file under root (symlinks are not followed), keyed by its path relative to the real root. */
export function fileSnapshot(root: string): Map<string, FileState> {
  const real = realpathSync(root);
  const files = new Map<string, FileState>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stats = lstatSync(path);
      if (stats.isDirectory()) walk(path);
      else if (stats.isFile()) {
        const data = readFileSync(path);
        files.set(relative(real, path).split(sep).join('/'), {
          bytes: data.length,
          sha256: sha256(data),
          ino: stats.ino,
          text: data.toString('utf8'),
        });
      }
    }
  };
  walk(real);
  return files;
}

/**
 * A spelling (`./docs/a.md`, an absolute path, a path through a symlinked dir) → the path
 * relative to the real root, resolved by the OS (realpath of the deepest existing ancestor);
 * undefined when it lands outside.
 */
export function canonicalPath(root: string, spelling: string): string | undefined {
  const real = realpathSync(root);
  let absolute = isAbsolute(spelling) ? spelling : resolve(real, spelling);
  const tail: string[] = [];
  while (!existsSync(absolute) && dirname(absolute) !== absolute) {
    tail.unshift(basename(absolute));
    absolute = dirname(absolute);
  }
  const resolved = join(realpathSync(absolute), ...tail);
  const rel = relative(real, resolved);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

export interface FileClaim {
  target: string;
  effect?: string;
  contains?: string;
  sha256?: string;
  /** The model's words about the file; content named here is checked like `contains`. */
  title?: string;
}

/**
 * Why a file claim is false (empty: true). `read` is true when the agent really read the file
 * (`reads`: canonical paths it called a read on) and it exists; `created`/`updated`/`deleted`
 * and content are measured on disk before and after.
 */
export function falseFileClaim(
  root: string,
  before: Map<string, FileState>,
  after: Map<string, FileState>,
  claim: FileClaim,
  reads: Set<string> = new Set(),
): string[] {
  const path = canonicalPath(root, claim.target);
  const label = `claim ${claim.effect ?? 'changed'} ${claim.target}`;
  if (!path) return [`${label}: outside the project`];
  const old = before.get(path);
  const now = after.get(path);
  const reasons: string[] = [];
  switch (claim.effect ?? 'changed') {
    case 'created':
      if (old) reasons.push(`${label}: ${path} existed before the run`);
      if (!now) reasons.push(`${label}: ${path} does not exist at the end`);
      break;
    case 'updated':
      if (!old) reasons.push(`${label}: ${path} did not exist before the run`);
      if (!now) reasons.push(`${label}: ${path} does not exist at the end`);
      if (old && now && old.sha256 === now.sha256 && old.ino === now.ino)
        reasons.push(`${label}: ${path} is unchanged`);
      break;
    case 'deleted':
      if (!old) reasons.push(`${label}: ${path} did not exist before the run`);
      if (now) reasons.push(`${label}: ${path} still exists`);
      break;
    case 'touched':
      // An item with no effect says only that the run dealt with this file.
      if (!old && !now) reasons.push(`${label}: ${path} exists neither before nor after the run`);
      break;
    case 'read':
      if (!reads.has(path)) reasons.push(`${label}: the agent never read ${path}`);
      if (!now) reasons.push(`${label}: ${path} does not exist`);
      break;
    default:
      if (!now) reasons.push(`${label}: ${path} does not exist at the end`);
      else if (old && old.sha256 === now.sha256 && old.ino === now.ino)
        reasons.push(`${label}: ${path} is unchanged`);
  }
  if (claim.contains !== undefined && !now?.text.includes(claim.contains))
    reasons.push(`${label}: its content does not contain "${claim.contains}"`);
  if (claim.sha256 !== undefined && now?.sha256 !== claim.sha256)
    reasons.push(
      `${label}: sha256 on disk is ${now?.sha256.slice(0, 12) ?? 'none'}, not ${claim.sha256.slice(0, 12)}`,
    );
  return reasons;
}

/** Why the items Tally reports for files are not true on disk (empty: all true). */
export function falseFileItems(
  root: string,
  before: Map<string, FileState>,
  after: Map<string, FileState>,
  items: Record<string, unknown>[],
  reads: Set<string> = new Set(),
): string[] {
  const reasons: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const target = String(item.path ?? item.target ?? '');
    const effect = typeof item.effect === 'string' ? item.effect.split(' ')[0] : 'touched';
    const path = canonicalPath(root, target);
    if (path && seen.has(`${effect}:${path}`)) reasons.push(`reported item ${target}: reported twice`);
    if (path) seen.add(`${effect}:${path}`);
    reasons.push(
      ...falseFileClaim(
        root,
        before,
        after,
        {
          target,
          effect,
          ...(typeof item.sha256 === 'string' ? { sha256: item.sha256 } : {}),
          ...(typeof item.contains === 'string' ? { contains: item.contains } : {}),
        },
        reads,
      ).map((why) => `reported item: ${why}`),
    );
  }
  return reasons;
}
