import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import {
  CHROMIUM_PATH,
  hasChromium,
  type JsonServer,
  type RecordedSession,
  recordJsonServerHar,
  startJsonServer,
} from './json-server-fixture.js';

// Fisherman against a real third-party REST server, json-server 0.17.4, with a HAR recorded
// in real Chromium. Every json-server collection numbers its ids from 1: `post 1` and
// `comment 1` are two different resources, and a verifier that keys on the bare id mixes
// them up. Each fish run goes to a SECOND, fresh server so the ids it creates collide.

/** Explicit, visible skip: CI installs Chromium (apt-get install -y chromium), so there it runs. */
const skipped = hasChromium
  ? ''
  : ` — SKIPPED: needs Chromium at ${CHROMIUM_PATH} to record the HAR (apt-get install -y chromium)`;

interface FishItem {
  target: string;
  type?: string;
  title?: string;
  via: string;
}
interface FishJson {
  status: string;
  endingReason?: string;
  summary?: string;
  tier?: string;
  verified: FishItem[];
  dropped: { claim: { target: string; type?: string }; why: string }[];
}
interface Row {
  id: number | string;
  postId?: number | string;
}

let scratch = '';
let har = '';
let recorded: RecordedSession | undefined;
const servers: JsonServer[] = [];

async function freshServer(): Promise<JsonServer> {
  const server = await startJsonServer({ posts: [], comments: [] });
  servers.push(server);
  return server;
}

async function getJson<T>(server: JsonServer, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as T };
}

/** `tally fish … --json` against the server, with everything a reader needs on failure. */
async function fish(request: string, server: JsonServer) {
  const run = await runTally(['fish', request, '--captures', har, '--base-url', server.url, '--json'], {
    cwd: tempDir(),
  });
  let result: FishJson | undefined;
  try {
    result = JSON.parse(run.stdout) as FishJson;
  } catch {
    result = undefined;
  }
  const header = `tally fish "${request}" exited ${run.code}`;
  const brief = result
    ? [
        header,
        `status ${result.status} · ending ${result.endingReason} · tier ${result.tier}`,
        `summary: ${result.summary}`,
        `verified: ${result.verified.map((item) => `${item.type} ${item.target} via ${item.via}`).join('; ') || '(none)'}`,
        `dropped: ${result.dropped.map((entry) => `${entry.claim.type} ${entry.claim.target}: ${entry.why}`).join('; ') || '(none)'}`,
      ].join('\n')
    : `${header}; its stdout is not JSON`;
  /** Everything, once per test: Tally's full output and json-server's request log. */
  const said = `${brief}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}\n--- json-server log ---\n${server.log()}`;
  return { run, result, brief, said };
}

const ids = (items: FishItem[], type: string) =>
  items
    .filter((item) => item.type === type)
    .map((item) => item.target)
    .sort();
const sorted = (rows: Row[]) => rows.map((row) => String(row.id)).sort();

describe('Fisherman against json-server 0.17.4, a real third-party REST server', () => {
  beforeAll(async () => {
    if (!hasChromium) return;
    scratch = mkdtempSync(join(tmpdir(), 'tally-json-server-har-'));
    har = join(scratch, 'json-server.har');
    const recordingServer = await startJsonServer({ posts: [], comments: [] });
    try {
      recorded = await recordJsonServerHar(recordingServer, har);
    } finally {
      await recordingServer.close();
    }
  }, 120_000);

  afterEach(async () => {
    while (servers.length > 0) await servers.pop()?.close();
  });

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it.skipIf(!hasChromium)(`records a HAR in real Chromium that talks to 127.0.0.1 only${skipped}`, () => {
    const session = recorded as RecordedSession;
    const seen = JSON.stringify(session, null, 2);
    expect(session.post, seen).toMatchObject({ status: 201, body: { id: 1, title: 'First post' } });
    expect(session.comment, seen).toMatchObject({ status: 201, body: { id: 1, postId: 1, body: 'Nice' } });
    expect(session.list, seen).toMatchObject({ status: 200, body: [{ id: 1 }] });
    const { log } = JSON.parse(readFileSync(har, 'utf8')) as {
      log: { entries: { request: { method: string; url: string }; response: { status: number } }[] };
    };
    // Anything not for 127.0.0.1 (the home page's CDN stylesheet) was aborted in the browser.
    for (const url of session.blocked) expect(new URL(url).hostname).not.toBe('127.0.0.1');
    for (const entry of log.entries) {
      const { hostname } = new URL(entry.request.url);
      if (hostname !== '127.0.0.1')
        expect(session.blocked, `${entry.request.url} left the machine`).toContain(entry.request.url);
    }
    const writes = log.entries
      .filter((entry) => entry.request.method !== 'GET')
      .map(
        (entry) => `${entry.request.method} ${new URL(entry.request.url).pathname} ${entry.response.status}`,
      );
    expect(writes).toEqual(['POST /posts 201', 'POST /comments 201']);
    expect(
      log.entries.some(
        (entry) => entry.request.method === 'GET' && new URL(entry.request.url).pathname === '/posts',
      ),
    ).toBe(true);
  });

  it.skipIf(!hasChromium)(
    `"1 post with 2 comments": one post, two comments linked to it, all verified${skipped}`,
    async () => {
      const server = await freshServer();
      const { run, result, brief, said } = await fish('1 post with 2 comments', server);

      // What json-server actually holds, independent of what Tally reports.
      const posts = await getJson<Row[]>(server, '/posts');
      const comments = await getJson<Row[]>(server, '/comments');
      expect.soft(sorted(posts.body), `json-server's posts\n${brief}`).toEqual(['1']);
      expect.soft(sorted(comments.body), `json-server's comments\n${brief}`).toEqual(['1', '2']);
      for (const comment of comments.body)
        expect.soft(comment.postId, `comment ${comment.id}'s postId\n${brief}`).toBe(1);

      // What Tally reports.
      expect(result, said).toBeDefined();
      const report = result as FishJson;
      expect.soft(run.code, said).toBe(0);
      expect.soft(report.status, brief).toBe('success');
      expect.soft(report.verified, brief).toHaveLength(3);
      expect.soft(report.dropped, brief).toEqual([]);
      const postIds = ids(report.verified, 'post');
      const commentIds = ids(report.verified, 'comment');
      expect.soft(postIds, brief).toHaveLength(1);
      expect.soft(commentIds, brief).toHaveLength(2);
      for (const item of report.verified) {
        expect.soft(['post', 'comment'], brief).toContain(item.type);
        expect
          .soft(item.via, brief)
          .toBe(item.type === 'post' ? 'POST /posts → 201' : 'POST /comments → 201');
      }

      // Tally's ids, confirmed through json-server's own API.
      for (const postId of postIds) {
        const post = await getJson<Row>(server, `/posts/${postId}`);
        expect.soft(post.status, `GET /posts/${postId}\n${brief}`).toBe(200);
        const children = await getJson<Row[]>(server, `/comments?postId=${postId}`);
        expect.soft(sorted(children.body), `GET /comments?postId=${postId}\n${brief}`).toEqual(commentIds);
      }
    },
    120_000,
  );

  it.skipIf(!hasChromium)(
    `"2 posts with 3 comments each": ids 1 and 2 are both posts and comments, none confused${skipped}`,
    async () => {
      const server = await freshServer();
      const { run, result, brief, said } = await fish('2 posts with 3 comments each', server);

      // What json-server actually holds: both collections count from 1, so ids collide.
      const posts = await getJson<Row[]>(server, '/posts');
      const comments = await getJson<Row[]>(server, '/comments');
      expect.soft(sorted(posts.body), `json-server's posts\n${brief}`).toEqual(['1', '2']);
      expect
        .soft(sorted(comments.body), `json-server's comments\n${brief}`)
        .toEqual(['1', '2', '3', '4', '5', '6'].sort());
      for (const post of posts.body) {
        const linked = comments.body.filter((comment) => String(comment.postId) === String(post.id));
        expect.soft(linked, `comments of post ${post.id} in json-server\n${brief}`).toHaveLength(3);
      }

      // What Tally reports.
      expect(result, said).toBeDefined();
      const report = result as FishJson;
      expect.soft(run.code, said).toBe(0);
      expect.soft(report.status, brief).toBe('success');
      expect.soft(report.verified, brief).toHaveLength(8);
      expect.soft(report.dropped, brief).toEqual([]);
      const postIds = ids(report.verified, 'post');
      const commentIds = ids(report.verified, 'comment');
      expect.soft(postIds, brief).toHaveLength(2);
      expect.soft(commentIds, brief).toHaveLength(6);
      for (const item of report.verified)
        expect
          .soft(item.via, brief)
          .toBe(item.type === 'post' ? 'POST /posts → 201' : 'POST /comments → 201');
      // The collision case is really covered: 1 and 2 are reported both as posts and as comments.
      expect.soft(postIds, `reported post ids\n${brief}`).toEqual(['1', '2']);
      expect.soft(commentIds, `reported comment ids\n${brief}`).toEqual(expect.arrayContaining(['1', '2']));

      // Tally's ids, confirmed through json-server's own API: each post has exactly 3 comments.
      const linkedIds: string[] = [];
      for (const postId of postIds) {
        const post = await getJson<Row>(server, `/posts/${postId}`);
        expect.soft(post.status, `GET /posts/${postId}\n${brief}`).toBe(200);
        const children = await getJson<Row[]>(server, `/comments?postId=${postId}`);
        expect.soft(children.body, `GET /comments?postId=${postId}\n${brief}`).toHaveLength(3);
        linkedIds.push(...sorted(children.body));
      }
      expect.soft(linkedIds.sort(), `comments linked to the reported posts\n${brief}`).toEqual(commentIds);
    },
    120_000,
  );
});
