// Achieve mode on a CMS's own OpenAPI document whose create bodies are `oneOf: [array of
// Item, Item]` (bulk or single, as Directus serves them), with a JSON login recipe that
// makes a session cookie: against a real app that keeps state (every link is checked
// there), and through Prism as a validating proxy in front of that app (every request and
// response checked against the document by a validator nobody here wrote).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareData } from '../../src/agents/fisherman/prepare-data.js';
import { loginRecipeSchemaOnce } from '../../src/packs/http/client/login-recipe.js';
import { runTally, tempDir, tempLedger } from '../helpers.js';
import { CMS_EMAIL, CMS_PASSWORD, CMS_SPEC, type CmsApp, startCmsApp } from './cms/cms-app.js';
import { type Prism, startPrism } from './prism-fixture.js';

const LOGIN = loginRecipeSchemaOnce().parse({
  url: '/auth/login',
  json: { email: CMS_EMAIL, password: CMS_PASSWORD, mode: 'session' },
});

describe('achieve mode on a CMS document with bulk-or-single create bodies', () => {
  let app: CmsApp;
  let prism: Prism;
  beforeAll(async () => {
    app = await startCmsApp();
    prism = await startPrism(CMS_SPEC, { upstream: app.url });
  }, 120_000);
  afterAll(async () => {
    prism?.process.kill();
    await app?.close();
  });

  it('the app takes both forms and checks what a real CMS checks (so a wrong body would fail below)', async () => {
    const login = await fetch(`${app.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(LOGIN.json),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const post = (body: unknown) =>
      fetch(`${app.url}/items/authors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(body),
      });
    const author = (email: string) => ({
      name: 'A',
      email,
      settings: { locale: 'en-US', notifications: { email: false } },
    });
    const bulk = await post([author('a@x.test'), author('b@x.test')]);
    expect(bulk.status).toBe(200);
    expect(((await bulk.json()) as { data: unknown[] }).data).toHaveLength(2);
    expect((await post(author('c@x.test'))).status).toBe(200);
    expect((await post({ ...author('d@x.test'), id: 9 })).status).toBe(400); // read-only
    expect((await post({ name: 'A', email: 'e@x.test', settings: { locale: 'en-US' } })).status).toBe(400);
    expect((await post(author('a@x.test'))).status).toBe(400); // unique email
    // The proxy refuses what breaks the document before the app sees it.
    const known = app.seen.length;
    const prismPost = await fetch(`${prism.url}/items/authors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        name: 'A',
        email: 'f@x.test',
        settings: { locale: 'xx', notifications: { email: true } },
      }),
    });
    expect(prismPost.status).toBe(422);
    expect(app.seen.length).toBe(known);
    for (const id of [...app.items.authors.keys()]) app.items.authors.delete(id);
  });

  it('"2 authors with 3 articles each" from the app\'s own document and a JSON login: exit 0, every item verified and linked in the app, 0 model calls', async () => {
    const ledger = tempLedger();
    const before = app.seen.length;
    const result = await prepareData({
      request: '2 authors with 3 articles each',
      captures: [],
      specs: [`${app.url}/server/specs/oas`],
      baseUrl: app.url,
      login: LOGIN,
      loginName: 'cms-login.json',
      ledger,
      env: {},
    });
    expect(result.unmet, result.summary).toEqual([]);
    expect(result).toMatchObject({
      status: 'success',
      tier: 'deterministic',
      counts: { modelCalls: 0, failures: 0 },
    });
    const authors = result.verified.filter((item) => item.type === 'author');
    const articles = result.verified.filter((item) => item.type === 'article');
    expect(authors.map((item) => item.via)).toEqual(Array(2).fill('POST /items/authors → 200'));
    expect(articles.map((item) => item.via)).toEqual(Array(6).fill('POST /items/articles → 200'));
    // In the app: each article points at an author this run made, three per author.
    const madeAuthors = authors.map((item) => Number(item.target));
    expect(madeAuthors.every((id) => app.items.authors.has(id))).toBe(true);
    for (const id of madeAuthors)
      expect([...app.items.articles.values()].filter((article) => article.author === id)).toHaveLength(3);
    // One object per request (never the bulk array), no read-only field, the marker in titles.
    const posts = app.seen.slice(before).filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(8);
    for (const { body } of posts) {
      expect(Array.isArray(body)).toBe(false);
      expect(Object.keys(body as object)).not.toContain('date_created');
    }
    expect(app.items.articles.get(Number(articles[0]?.target))?.title).toMatch(
      new RegExp(`· ${result.marker}$`),
    );
    // The password never reaches the ledger.
    expect(JSON.stringify(ledger.entries(result.runId))).not.toContain(CMS_PASSWORD);
  });

  it('the same through Prism validating every request and response against the document: all pass, all reach the app', async () => {
    const ledger = tempLedger();
    const before = app.items.articles.size;
    const result = await prepareData({
      request: '2 authors with 3 articles each',
      captures: [],
      specs: [CMS_SPEC],
      baseUrl: prism.url,
      login: LOGIN,
      ledger,
      env: {},
    });
    expect(result.unmet, result.summary).toEqual([]);
    expect(result).toMatchObject({
      status: 'success',
      tier: 'deterministic',
      counts: { modelCalls: 0, failures: 0 },
    });
    expect(result.verified.map((item) => item.type).sort()).toEqual([
      'article',
      'article',
      'article',
      'article',
      'article',
      'article',
      'author',
      'author',
    ]);
    expect(app.items.articles.size).toBe(before + 6);
  });

  it("from the command line: tally fish --spec URL --login recipe.json exits 0, and cleanup logs in with the run's recipe and deletes children first", async () => {
    const cwd = tempDir('tally-cms-');
    const recipe = join(cwd, 'cms-login.json');
    writeFileSync(
      recipe,
      JSON.stringify({
        url: '/auth/login',
        json: { email: CMS_EMAIL, password: '${TALLY_CMS_PASSWORD}', mode: 'session' },
      }),
    );
    const env = { TALLY_CMS_PASSWORD: CMS_PASSWORD, XDG_STATE_HOME: tempDir('tally-state-') };
    const run = await runTally(
      [
        'fish',
        '1 author with 2 articles',
        '--spec',
        `${app.url}/server/specs/oas`,
        '--login',
        recipe,
        '--json',
      ],
      { cwd, env },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { runId: string; verified: { type: string; target: string }[] };
    expect(result.verified.map((item) => item.type)).toEqual(['author', 'article', 'article']);
    const authorId = Number(result.verified[0]?.target);
    expect(app.items.authors.has(authorId)).toBe(true);

    const cleanup = await runTally(['fish', 'cleanup', result.runId, '--json'], { cwd, env });
    expect(cleanup.stderr).toBe('');
    expect(cleanup.code).toBe(0);
    const cleaned = JSON.parse(cleanup.stdout) as { deletions: { path: string; outcome: string }[] };
    // Articles first: the CMS refuses to delete an author that articles still point at.
    expect(cleaned.deletions.map((deletion) => [deletion.path.split('/')[2], deletion.outcome])).toEqual([
      ['articles', 'deleted'],
      ['articles', 'deleted'],
      ['authors', 'deleted'],
    ]);
    expect(app.items.authors.has(authorId)).toBe(false);
  });
});
