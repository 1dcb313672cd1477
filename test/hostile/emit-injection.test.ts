import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { emitJson, emitPlaywright } from '../../src/agents/fisherman/emit/emit-setup.js';
import { commentText, jsString, jsValue } from '../../src/agents/fisherman/emit/source-text.js';
import type { CreatedNode } from '../../src/agents/fisherman/recipes/created-tree.js';
import { tempDir } from '../helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const pwned = globalThis as { __tallyPwned?: number };

/** Code that, if it ever runs, leaves a mark: a global counter and a file. */
function payload(marker: string): string {
  return `globalThis.__tallyPwned = (globalThis.__tallyPwned ?? 0) + 1; require("node:fs").writeFileSync(${JSON.stringify(marker)}, "pwned"); //`;
}

/** Ways out of a comment, a string or a template literal, each followed by the payload. */
function hostile(marker: string): fc.Arbitrary<string> {
  const breakers = [
    '\n',
    '\r',
    '\r\n',
    '\u2028',
    '\u2029',
    '*/',
    '/*',
    '"',
    "'",
    '`',
    '${',
    '}',
    '\\',
    '</script>',
    '/../..',
    '__proto__',
    '\u0000',
  ];
  const piece = fc.oneof(
    fc.constantFrom(...breakers),
    fc.constant(payload(marker)),
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'grapheme', maxLength: 4 }),
  );
  return fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
}

function hostileBody(marker: string, text: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  const value = fc.oneof(
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(text, { maxLength: 2 }),
    fc.dictionary(text, text, { maxKeys: 2 }),
  );
  return fc
    .tuple(
      fc.dictionary(text, value, { maxKeys: 3 }),
      fc.oneof(text, fc.constant(`Made ${marker} here`)),
      fc.boolean(),
    )
    .map(([rest, title, withProto]) => {
      const body: Record<string, unknown> = { ...rest, title };
      if (withProto) Object.defineProperty(body, '__proto__', { value: { polluted: 1 }, enumerable: true });
      return body;
    });
}

interface Case {
  meta: { runId: string; baseUrl: string; marker: string };
  tree: CreatedNode[];
}

function caseOf(markerFile: string): fc.Arbitrary<Case> {
  const text = hostile(markerFile);
  const node = fc.record({ type: text, path: text, key: text, title: text, body: hostileBody('mk', text) });
  return fc
    .record({
      runId: text,
      baseUrl: fc.oneof(
        text.map((tail) => `http://127.0.0.1:1/${tail}`),
        fc.constant(`http://127.0.0.1:1/\n${payload(markerFile)}/../..`),
        fc.constant(`http://127.0.0.1:1/\u2028${payload(markerFile)}/../..`),
        fc.constant(`http://127.0.0.1:1/*/${payload(markerFile)}/*/../..`),
      ),
      nodes: fc.array(fc.tuple(node, fc.nat(), fc.constantFrom('none', 'path', 'body')), {
        minLength: 1,
        maxLength: 4,
      }),
    })
    .map(({ runId, baseUrl, nodes }) => {
      const tree: CreatedNode[] = nodes.map(([item, pick, kind], index) => {
        const base: CreatedNode = { ...item, id: String(index + 1), method: 'POST' };
        if (index === 0 || kind === 'none') return base;
        const parent = pick % index;
        if (kind === 'body') {
          const field = Object.keys(item.body)[0] ?? 'title';
          return { ...base, parent: { index: parent, link: { kind: 'body', field, numeric: false } } };
        }
        const segments = item.path.split('/');
        return { ...base, parent: { index: parent, link: { kind: 'path', index: pick % segments.length } } };
      });
      return { meta: { runId, baseUrl, marker: 'mk' }, tree };
    });
}

interface Sent {
  path: string;
  data: unknown;
}

/** Compiles the emitted TypeScript (esbuild, as a bundler would) and runs it: import, prepare, cleanup. */
async function compileAndRun(code: string): Promise<{ posts: Sent[]; deletes: string[]; ids: string[] }> {
  const js = transformSync(code, { loader: 'ts', format: 'cjs', target: 'es2022' }).code;
  const module = { exports: {} as Record<string, unknown> };
  new Function('exports', 'require', 'module', js)(module.exports, require, module);
  const fixture = module.exports as {
    prepare: (request: unknown, options: unknown) => Promise<Record<string, { id: string }>>;
    cleanup: (request: unknown, prepared: unknown, options: unknown) => Promise<void>;
  };
  const posts: Sent[] = [];
  const deletes: string[] = [];
  const ids: string[] = [];
  const response = (status: number, text: string) => ({
    ok: () => status < 400,
    status: () => status,
    headers: () => ({}),
    text: async () => text,
  });
  const request = {
    post: async (path: string, options: { data: unknown }) => {
      posts.push({ path, data: structuredClone(options.data) });
      const id = `id/${posts.length}`;
      ids.push(id);
      return response(201, JSON.stringify({ id }));
    },
    delete: async (path: string) => {
      deletes.push(path);
      return response(204, '');
    },
  };
  const prepared = await fixture.prepare(request, { marker: 'mk' });
  await fixture.cleanup(request, prepared, {});
  return { posts, deletes, ids };
}

/** What the fixture must send for each node: the captured path and body, parents' new ids threaded in. */
function expectedPost(tree: CreatedNode[], index: number, ids: string[]): Sent {
  const node = tree[index] as CreatedNode;
  const link = node.parent?.link;
  const parentId = node.parent ? (ids[node.parent.index] as string) : '';
  let path = node.path;
  if (link?.kind === 'path') {
    const segments = node.path.split('/');
    const after = segments.slice(link.index + 2).join('/');
    path = `${segments.slice(0, link.index + 1).join('/')}/${encodeURIComponent(parentId)}${after ? `/${after}` : ''}`;
  }
  const data: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(node.body))
    Object.defineProperty(data, field, {
      value: link?.kind === 'body' && link.field === field ? parentId : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { path, data: structuredClone(data) };
}

afterEach(() => {
  pwned.__tallyPwned = undefined;
});

describe('--emit playwright: hostile strings stay data (issue 19, item 1)', () => {
  it('the serializer writes printable ASCII only: no line terminator, comment end or script end', () => {
    for (const value of ['a\nb', 'a\u2028b', 'a\u2029b', 'x*/y', '</script>', '\r', 'é😀']) {
      expect(jsString(value)).toMatch(/^"[\x20-\x7e]*"$/);
      expect(jsString(value)).not.toContain('*/');
      expect(JSON.parse(jsString(value))).toBe(value);
      expect(commentText(value)).toMatch(/^[\x20-\x7e]*$/);
      expect(commentText(value)).not.toContain('*/');
    }
    expect(jsValue({ a: [1, 'x\u2028', null, true] })).toBe('{ "a": [1, "x\\u2028", null, true] }');
    const proto = JSON.parse('{"__proto__": {"x": 1}}');
    expect(jsValue(proto)).toBe('{ ["__proto__"]: { "x": 1 } }');
  });

  it('a spec base URL that ends the header comment (newline, U+2028, U+2029) runs nothing when the emitted file is compiled and run by node', async () => {
    const dir = tempDir();
    const markerFile = join(dir, 'pwned');
    const tree: CreatedNode[] = [
      {
        key: '/api/suites/1',
        type: 'suites',
        id: '1',
        method: 'POST',
        path: '/api/suites',
        body: { title: 'S mk' },
      },
    ];
    const cases = ['\n', '\r', '\u2028', '\u2029'].map(
      (breaker) => `http://127.0.0.1:1/${breaker}${payload(markerFile)}/../..`,
    );
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(ROOT, 'node_modules', 'tsx'), join(dir, 'node_modules', 'tsx'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }');
    for (const [index, baseUrl] of cases.entries()) {
      writeFileSync(
        join(dir, `fixture${index}.ts`),
        emitPlaywright(tree, { runId: `r\n${payload(markerFile)}`, baseUrl, marker: 'mk' }),
      );
    }
    // A real Node process imports every fixture through tsx and calls prepare/cleanup against a stub request.
    writeFileSync(
      join(dir, 'run.ts'),
      `const request = {
  post: async () => ({ ok: () => true, status: () => 201, headers: () => ({}), text: async () => '{"id":"7"}' }),
  delete: async () => ({ ok: () => true, status: () => 204, headers: () => ({}), text: async () => '' }),
};
async function main() {
  const out: string[] = [];
  for (let index = 0; index < ${cases.length}; index++) {
    const fixture = require('./fixture' + index + '.ts');
    const data = await fixture.prepare(request, { marker: 'mk' });
    await fixture.cleanup(request, data);
    out.push(data.suite1.id);
  }
  console.log(JSON.stringify({ out, pwned: (globalThis as { __tallyPwned?: number }).__tallyPwned ?? 0 }));
}
main();
`,
    );
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', 'run.ts'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1) as string)).toEqual({
      out: ['7', '7', '7', '7'],
      pwned: 0,
    });
    expect(existsSync(markerFile)).toBe(false);
  }, 30_000);

  it('fuzz: hostile base URL, run id, types, paths, field names, titles and bodies compile, run nothing, and send exactly the captured data', async () => {
    const dir = tempDir();
    const markerFile = join(dir, 'pwned');
    await fc.assert(
      fc.asyncProperty(caseOf(markerFile), async ({ meta, tree }) => {
        const code = emitPlaywright(tree, meta);
        // Every line of the generated file is printable ASCII: nothing invisible in an editor.
        expect(code.replace(/→/g, '')).toMatch(/^[\x20-\x7e\n]*$/);
        const { posts, deletes, ids } = await compileAndRun(code);
        expect(pwned.__tallyPwned).toBeUndefined();
        expect(existsSync(markerFile)).toBe(false);
        expect(posts).toEqual(tree.map((_node, index) => expectedPost(tree, index, ids)));
        expect(deletes).toHaveLength(tree.length);
        // --emit json stays JSON with the same strings.
        const json = JSON.parse(emitJson(tree, meta));
        expect(json.baseUrl).toBe(meta.baseUrl);
        expect(emitJson(tree, meta)).not.toMatch(/[\u2028\u2029]/);
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
