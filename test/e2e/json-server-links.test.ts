import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { harEntry, writeHar } from '../packs/http/har-fixtures.js';
import { type JsonServer, startJsonServer } from './json-server-fixture.js';

// json-server apps whose shapes misled the deterministic tier: which field links a child to
// its parent, and an app collection whose name the run's own summary happened to say.

interface FishJson {
  status: string;
  tier?: string;
  summary: string;
  verified: { type?: string; target: string }[];
  unmet: string[];
}

const servers: JsonServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function server(db: Record<string, unknown[]>): Promise<JsonServer> {
  const started = await startJsonServer(db);
  servers.push(started);
  return started;
}

async function fish(request: string, source: string[]) {
  const dir = tempDir();
  const run = await runTally(['fish', request, ...source, '--ledger', join(dir, 'ledger.db'), '--json'], {
    cwd: dir,
  });
  const said = `tally fish "${request}" exited ${run.code}\n${run.stdout}\n${run.stderr}`;
  return { run, said, result: JSON.parse(run.stdout || '{}') as FishJson };
}

const post = async (url: string, body: unknown) =>
  (await (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()) as { id: number };

function openApi(
  url: string,
  paths: Record<string, { required: string[]; properties: Record<string, unknown> }>,
) {
  const spec = join(tempDir(), 'openapi.json');
  const document = {
    openapi: '3.0.3',
    info: { title: 'json-server', version: '1' },
    servers: [{ url }],
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, schema]) => [
        path,
        {
          post: {
            requestBody: { content: { 'application/json': { schema: { type: 'object', ...schema } } } },
            responses: { 201: { description: 'created' } },
          },
        },
      ]),
    ),
  };
  writeFileSync(spec, JSON.stringify(document));
  return spec;
}

describe('the field that links a child to its parent', () => {
  // A task's `parentId` is its parent task; `projectId` its project. Reading `parentId` as the
  // link sent each project's id there, left `projectId` at the schema's sample (project 1, made
  // before the run), and the verdict, reading `parentId` too, called the tasks linked: success.
  it('"2 projects with 2 tasks each" from OpenAPI: projectId is the link, not a parent task\'s parentId', async () => {
    const app = await server({ projects: [], tasks: [] });
    await post(`${app.url}/projects`, { name: 'made before the run' });
    const spec = openApi(app.url, {
      '/projects': { required: ['name'], properties: { name: { type: 'string' } } },
      '/tasks': {
        required: ['title', 'projectId'],
        properties: {
          title: { type: 'string' },
          parentId: { type: 'integer', description: 'the parent task' },
          projectId: { type: 'integer' },
        },
      },
    });
    const { run, said, result } = await fish('2 projects with 2 tasks each', ['--spec', spec]);
    expect(run.code, said).toBe(0);
    expect(result, said).toMatchObject({ status: 'success', tier: 'deterministic', unmet: [] });
    const db = app.db() as { projects: { id: number }[]; tasks: { projectId: number; parentId?: number }[] };
    for (const project of db.projects.slice(1))
      expect(db.tasks.filter((task) => task.projectId === project.id)).toHaveLength(2);
    expect(db.tasks.filter((task) => task.parentId !== undefined)).toEqual([]);
  });

  // json-server numbers every collection from 1: in the captured comment, `authorId: 1` held
  // the captured post's id as well as `postId: 1` did. The first field won: each new comment got
  // the new post's id as its author and kept the captured post 1, and the plain request failed.
  it('"2 posts with 2 comments each" from a HAR: postId is the link even when authorId holds the same number', async () => {
    const app = await server({ users: [], posts: [], comments: [] });
    const user = await post(`${app.url}/users`, { name: 'Ann' });
    const first = await post(`${app.url}/posts`, { title: 'First' });
    const body = { authorId: user.id, postId: first.id, body: 'Nice' };
    const comment = await post(`${app.url}/comments`, body);
    expect([user.id, first.id]).toEqual([1, 1]);
    const har = writeHar(tempDir(), 'app.har', [
      harEntry('POST', `${app.url}/posts`, 201, { body: { title: 'First' }, response: first }),
      harEntry('POST', `${app.url}/comments`, 201, { body, response: comment }),
    ]);
    const { run, said, result } = await fish('2 posts with 2 comments each', ['--captures', har]);
    expect(run.code, said).toBe(0);
    expect(result, said).toMatchObject({ status: 'success', tier: 'deterministic', unmet: [] });
    const db = app.db() as { posts: { id: number }[]; comments: { postId: number; authorId: number }[] };
    for (const made of db.posts.slice(1)) {
      const under = db.comments.filter((entry) => entry.postId === made.id);
      expect(under).toHaveLength(2);
      expect(under.map((entry) => entry.authorId)).toEqual([1, 1]);
    }
  });
});

describe('a parent the create requires, which the request does not name', () => {
  const spec = (url: string) =>
    openApi(url, {
      '/posts': { required: ['title'], properties: { title: { type: 'string' } } },
      '/comments': {
        required: ['body', 'postId'],
        properties: { body: { type: 'string' }, postId: { type: 'integer' } },
      },
    });

  // The schema's sample id was sent: `postId: 1`, a post that did not exist, and the run said
  // success. Now an existing post is used (found by a read), else one is made, and said so.
  it('"2 comments" with no post in the app: a post is made for them, and the summary says so', async () => {
    const app = await server({ posts: [], comments: [] });
    const { run, said, result } = await fish('2 comments', ['--spec', spec(app.url)]);
    expect(run.code, said).toBe(0);
    expect(result.summary).toContain('no post existed, so post 1 was created for the comments');
    const db = app.db() as { posts: { id: number }[]; comments: { postId: number }[] };
    expect(db.posts.map((made) => made.id)).toEqual([1]);
    expect(db.comments.map((comment) => comment.postId)).toEqual([1, 1]);
  });

  it('"2 comments" where post 1 is gone and post 2 exists: they go into post 2', async () => {
    const app = await server({ posts: [], comments: [] });
    await post(`${app.url}/posts`, { title: 'gone' });
    await post(`${app.url}/posts`, { title: 'kept' });
    await fetch(`${app.url}/posts/1`, { method: 'DELETE' });
    const { run, said, result } = await fish('2 comments', ['--spec', spec(app.url)]);
    expect(run.code, said).toBe(0);
    expect(result.summary).toContain('the comments went into the existing post 2');
    const db = app.db() as { comments: { postId: number }[] };
    expect(db.comments.map((comment) => comment.postId)).toEqual([2, 2]);
  });
});

describe('a parent the create path requires, which the request does not name', () => {
  // Only POST /owners/{ownerId}/pets creates pets, and the spec gives `ownerId` an example (7).
  const spec = (url: string, ownersCreatable = true) => {
    const file = join(tempDir(), 'openapi.json');
    const body = (properties: Record<string, unknown>) => ({
      requestBody: {
        content: {
          'application/json': { schema: { type: 'object', required: Object.keys(properties), properties } },
        },
      },
      responses: { 201: { description: 'created' } },
    });
    const paths: Record<string, unknown> = {
      '/owners/{ownerId}/pets': {
        parameters: [
          { name: 'ownerId', in: 'path', required: true, example: 7, schema: { type: 'integer' } },
        ],
        post: body({ name: { type: 'string' } }),
      },
    };
    if (ownersCreatable) paths['/owners'] = { post: body({ name: { type: 'string' } }) };
    const document = { openapi: '3.0.3', info: { title: 'clinic', version: '1' }, servers: [{ url }], paths };
    writeFileSync(file, JSON.stringify(document));
    return file;
  };

  // The example owner 7 was used unchecked: three pets filed under an owner that did not
  // exist, and the run said success. Now an existing owner is found by a read, or one is made.
  it('"3 pets" with no owner in the app: an owner is made for them, and the summary says so', async () => {
    const app = await server({ owners: [], pets: [] });
    const { run, said, result } = await fish('3 pets', ['--spec', spec(app.url)]);
    expect(run.code, said).toBe(0);
    expect(result, said).toMatchObject({ status: 'success', unmet: [] });
    expect(result.summary).toContain('no owner existed, so owner 1 was created for the pets');
    const db = app.db() as { owners: { id: number }[]; pets: { ownerId: unknown }[] };
    expect(db.owners.map((owner) => owner.id)).toEqual([1]);
    expect(db.pets.map((pet) => Number(pet.ownerId))).toEqual([1, 1, 1]);
  });

  it('"3 pets" where owner 2 exists: they go into owner 2, not the example owner 7', async () => {
    const app = await server({ owners: [{ id: 2, name: 'Ann' }], pets: [] });
    const { run, said, result } = await fish('3 pets', ['--spec', spec(app.url)]);
    expect(run.code, said).toBe(0);
    expect(result.summary).toContain('the pets went into the existing owner 2');
    const db = app.db() as { pets: { ownerId: unknown }[] };
    expect(db.pets.map((pet) => Number(pet.ownerId))).toEqual([2, 2, 2]);
  });

  it('"3 pets" where no operation creates owners: refused before any request, naming --scope', async () => {
    const app = await server({ owners: [], pets: [] });
    const { run, said } = await fish('3 pets', ['--spec', spec(app.url, false)]);
    expect(run.code, said).not.toBe(0);
    expect(run.stdout, said).toContain(
      'POST /owners/{ownerId}/pets puts pets into the owner {ownerId} names, and no operation of the OpenAPI documents creates owners',
    );
    expect((app.db() as { pets: unknown[] }).pets).toEqual([]);
  });
});

describe('a --scope the planned creates cannot carry', () => {
  // json-server's /comments takes no path parameter: with --scope /posts/2 the comments were
  // made (in post 1, or at the schema's sample id), and only then reported outside the scope.
  it('"3 comments" --scope /posts/2 against flat /comments: refused before any request, naming the way to say it', async () => {
    const app = await server({
      posts: [
        { id: 1, title: 'a' },
        { id: 2, title: 'b' },
      ],
      comments: [],
    });
    const spec = openApi(app.url, {
      '/posts': { required: ['title'], properties: { title: { type: 'string' } } },
      '/comments': {
        required: ['body', 'postId'],
        properties: { body: { type: 'string' }, postId: { type: 'integer' } },
      },
    });
    const { run, said } = await fish('3 comments', ['--spec', spec, '--scope', '/posts/2']);
    expect(run.code, said).not.toBe(0);
    expect(run.stdout, said).toContain('POST /comments makes 3 comments with no path parameter to take it');
    expect(run.stdout, said).toContain('e.g. \\"3 comments in post 2\\"');
    expect((app.db() as { comments: unknown[] }).comments).toEqual([]);
  });
});

describe('a named parent the app cannot take', () => {
  // Said "puts a posts into a user", and not where it looked.
  it('"3 posts for user 5" where posts name no user: refused, naming the operation', async () => {
    const app = await server({ users: [{ id: 5, name: 'u' }], posts: [] });
    const spec = openApi(app.url, {
      '/users': { required: ['name'], properties: { name: { type: 'string' } } },
      '/posts': { required: ['title'], properties: { title: { type: 'string' } } },
    });
    const { run, said } = await fish('3 posts for user 5', ['--spec', spec]);
    expect(run.code, said).not.toBe(0);
    expect(run.stdout, said).toContain(
      'no operation of the OpenAPI documents puts posts into a user: no user path parameter or userId-like body field in POST /posts',
    );
    expect((app.db() as { posts: unknown[] }).posts).toEqual([]);
  });
});

describe("the run's own summary against the app's collection names", () => {
  // The deterministic summary said "Created 3 items": in an app with `/line-items`, the summary
  // check read that as 3 line items, none made, and "3 posts" ended partial.
  it.each(['items', 'line-items'])('"3 posts" in an app that also has /%s: a success', async (collection) => {
    const app = await server({ posts: [], [collection]: [] });
    const spec = openApi(app.url, {
      '/posts': { required: ['title'], properties: { title: { type: 'string' } } },
      [`/${collection}`]: { required: ['sku'], properties: { sku: { type: 'string' } } },
    });
    const { run, said, result } = await fish('3 posts', ['--spec', spec]);
    expect(run.code, said).toBe(0);
    expect(result, said).toMatchObject({ status: 'success', unmet: [] });
    expect(result.summary).toMatch(/^Created 3 posts through the API\./);
    expect((app.db() as { posts: unknown[] }).posts).toHaveLength(3);
  });
});
