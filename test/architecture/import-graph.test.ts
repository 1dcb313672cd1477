import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = resolve(import.meta.dirname, '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

interface Imports {
  static: string[];
  dynamic: string[];
}

function importsOf(file: string): Imports {
  const text = readFileSync(file, 'utf8');
  const staticImports = [...text.matchAll(/^\s*(?:import|export)\s(?!type\b)[^'"]*?from\s+'([^']+)'/gm)].map(
    (match) => match[1] as string,
  );
  const sideEffect = [...text.matchAll(/^\s*import\s+'([^']+)'/gm)].map((match) => match[1] as string);
  const dynamic = [...text.matchAll(/import\(\s*'([^']+)'\s*\)/g)].map((match) => match[1] as string);
  return { static: [...staticImports, ...sideEffect], dynamic };
}

function layerOf(file: string): string {
  return relative(src, file).split('/')[0] as string;
}

function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return resolve(dirname(from), specifier.replace(/\.js$/, '.ts'));
}

// Arrows point one way: surfaces → agents → packs → core. testing helps users test against core.
const ALLOWED: Record<string, string[]> = {
  core: ['core'],
  packs: ['core', 'packs'],
  agents: ['core', 'packs', 'agents'],
  testing: ['core', 'testing'],
  surfaces: ['core', 'packs', 'agents', 'surfaces', 'testing', 'demo-app'],
  // The demo target app stands alone: it knows nothing of Tally.
  'demo-app': ['demo-app'],
  'index.ts': ['core'],
};

const HEAVY = /^(ai|@ai-sdk\/.*|playwright-core|@modelcontextprotocol\/.*|@opentelemetry\/.*|ora)$/;

interface Reach {
  /** Every local module reached, relative to src. */
  modules: string[];
  /** Every package import, as `module → package`. */
  packages: string[];
}

/**
 * Every module an entry file loads: its static imports, transitively. With `dynamicFrom`,
 * the dynamic imports of those files are followed too (a dispatcher whose every branch is a
 * lazy import, like the hook entry: each branch is what one invocation loads).
 */
function reachFrom(entry: string, dynamicFrom: string[] = []): Reach {
  const seen = new Set<string>();
  const packages: string[] = [];
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const imports = importsOf(file);
    const followed = dynamicFrom.includes(file) ? [...imports.static, ...imports.dynamic] : imports.static;
    for (const specifier of followed) {
      const target = resolveLocal(file, specifier);
      if (target) walk(target);
      else packages.push(`${relative(src, file)} → ${specifier}`);
    }
  };
  walk(entry);
  return { modules: [...seen].map((file) => relative(src, file)), packages };
}

/** Follows static imports from an entry file; lists every heavy package it would load. */
function heavyImportsFrom(entry: string): { seen: number; loaded: string[] } {
  const { modules, packages } = reachFrom(entry);
  return {
    seen: modules.length,
    loaded: packages.filter((line) => HEAVY.test(line.split(' → ')[1] as string)),
  };
}

/** Every local module a file names in an import or re-export, type-only ones included. */
function localEdges(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)]
    .map((match) => resolveLocal(file, match[1] as string))
    .filter((target): target is string => target !== undefined);
}

/**
 * The import cycles among `files`, each as the path that closes it (`a → b → a`), found by a
 * depth-first walk: an edge back to a module still on the walk's stack closes a cycle.
 */
function importCycles(all: string[]): string[] {
  const graph = new Map(all.map((file) => [file, localEdges(file)]));
  const state = new Map<string, 'walking' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const walk = (file: string) => {
    state.set(file, 'walking');
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (state.get(target) === 'walking')
        cycles.push([...stack.slice(stack.indexOf(target)), target].map((f) => relative(src, f)).join(' → '));
      else if (!state.has(target)) walk(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of all) if (!state.has(file)) walk(file);
  return cycles;
}

/**
 * Words that name a pack's or an agent's concept: agent names, pack tool names, a pack's error
 * codes, the chat id, the records pack's digests and the Fisherman's recipes, the Claude Code
 * gates. `.digest(` (a hash) is not the word.
 */
const PACK_OR_AGENT_WORDS =
  /\b(?:fisherman|scout|coder|fs_[a-z_]+|records?_[a-z_]+|browser_console|get_endpoint_spec|PATH_OUTSIDE_PROJECT|chatId|chat_id|recipes?|how-do-i|am-i-done)\b|(?<![.\w])digests?\b/gi;

/**
 * Where core may still name a pack or agent concept: nowhere. The list stays so that a needed
 * exception is written here, named, and fails once unused. Issue 20: the fail-open reasons of
 * packs, agents and surfaces are declared by their owners (`declareFailOpenReasons`,
 * `definePack({ failOpenReasons })`), and the Coder's stats are its own contributor.
 */
const CORE_NAMING_EXCEPTIONS: Record<string, string[]> = {
  // HTTP's `Authorization: Digest …` scheme, which the redactor masks: not the records' digests.
  'core/redact.ts': ['Digest', 'digest'],
};

/** The naming hits no exception covers, and the exceptions nothing uses any more. */
function namingOutsideExceptions(naming: Record<string, string[]>): {
  uncovered: string[];
  unused: string[];
} {
  const used = new Set<string>();
  const uncovered: string[] = [];
  for (const [file, words] of Object.entries(naming)) {
    const scope = Object.keys(CORE_NAMING_EXCEPTIONS).find(
      (key) => file === key || (key.endsWith('/') && file.startsWith(key)),
    );
    for (const word of words) {
      if (scope && CORE_NAMING_EXCEPTIONS[scope]?.includes(word)) used.add(scope);
      else uncovered.push(`${file}: ${word}`);
    }
  }
  return { uncovered, unused: Object.keys(CORE_NAMING_EXCEPTIONS).filter((key) => !used.has(key)) };
}

/** Each core file that names a pack or agent concept, with the distinct words it uses. */
function coreNaming(): Record<string, string[]> {
  const naming: Record<string, string[]> = {};
  for (const file of files(join(src, 'core'))) {
    const words = [
      ...new Set([...readFileSync(file, 'utf8').matchAll(PACK_OR_AGENT_WORDS)].map((m) => m[0])),
    ];
    if (words.length > 0) naming[relative(src, file)] = words.sort((a, b) => a.localeCompare(b));
  }
  return naming;
}

const HOOK_ENTRY = join(src, 'surfaces', 'cli', 'hook-entry.ts');

describe('dependency direction', () => {
  it('every import points down the layers (the core never imports packs, agents or surfaces)', () => {
    const violations: string[] = [];
    for (const file of files(src)) {
      const layer = layerOf(file);
      const imports = importsOf(file);
      for (const specifier of [...imports.static, ...imports.dynamic]) {
        const target = resolveLocal(file, specifier);
        if (!target) continue;
        const targetLayer = layerOf(target);
        if (!(ALLOWED[layer] ?? []).includes(targetLayer))
          violations.push(`${relative(src, file)} → ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the CLI entry loads no model SDK or browser until a command needs it', () => {
    const { seen, loaded } = heavyImportsFrom(join(src, 'surfaces', 'cli', 'main.ts'));
    expect(seen).toBeGreaterThan(2);
    expect(loaded).toEqual([]);
  });

  it('a records query (and the scout, and the hook) loads no model SDK, browser or MCP SDK', () => {
    for (const entry of [
      'records-command.ts',
      'scout-command.ts',
      'hook-digest-record-command.ts',
      'hook-turn-check-command.ts',
      'hook-unknown-command.ts',
      'records-query-fast.ts',
    ]) {
      expect(heavyImportsFrom(join(src, 'surfaces', 'cli', entry)).loaded, entry).toEqual([]);
    }
  });

  it('`tally fish` with captures loads no model SDK, OTel, OpenAPI parser or YAML parser: the model tier, --spec and explorbot directories load theirs when used', () => {
    // Issue 22: the deterministic tier paid ~0.4 s of start-up for the AI SDK and swagger-parser it never used.
    const { packages } = reachFrom(join(src, 'surfaces', 'cli', 'fish-command.ts'));
    const loaded = packages.map((line) => line.split(' → ')[1] as string);
    expect(loaded.filter((name) => HEAVY.test(name) || /^(@apidevtools\/.*|yaml)$/.test(name))).toEqual([]);
    // Still reachable, lazily: the test above would pass vacuously if the graph were empty.
    expect(loaded).toContain('zod');
  });

  it('the hook fast path (hook-entry, every hook it dispatches to) loads only Node built-ins: no CLI, no command table, no agent', () => {
    // Claude Code runs a PreToolUse hook on every tool call; its start-up is the whole cost.
    const { modules, packages } = reachFrom(HOOK_ENTRY, [HOOK_ENTRY]);
    expect(modules).toEqual(
      expect.arrayContaining([
        'surfaces/cli/hook-digest-record-command.ts',
        'surfaces/cli/hook-turn-check-command.ts',
        'surfaces/cli/hook-unknown-command.ts',
      ]),
    );
    expect(packages.filter((line) => !/ → node:/.test(line))).toEqual([]);
    expect(modules.filter((module) => module.startsWith('agents/'))).toEqual([]);
    expect(
      modules.filter(
        (module) =>
          module.startsWith('surfaces/') &&
          !/^surfaces\/cli\/(hook-[a-z-]+|exit-codes)\.ts$/.test(module) &&
          !module.startsWith('surfaces/claude-code/'),
      ),
    ).toEqual([]);
    // The walk itself must see the dispatch: without following the lazy imports it sees one file.
    expect(reachFrom(HOOK_ENTRY).modules).toEqual(['surfaces/cli/hook-entry.ts']);
  });

  it('the records query fast path loads no commander and no command table (only Node built-ins; SQLite through the seam)', () => {
    const { modules, packages } = reachFrom(join(src, 'surfaces', 'cli', 'records-query-fast.ts'));
    expect(packages.filter((line) => !/ → node:/.test(line))).toEqual([]);
    expect(modules).toContain('core/sqlite/open-sqlite.ts');
    expect(modules).not.toContain('surfaces/cli/main.ts');
  });

  it('SQLite is reached only through core/sqlite: no other module names a driver', () => {
    // better-sqlite3 12.x aborts Node 24, and a static import would load it before the seam
    // could choose node:sqlite; one seam keeps the choice in one place.
    const naming = files(src)
      .filter((file) => !relative(src, file).startsWith('core/sqlite/'))
      .filter((file) => /['"](better-sqlite3|node:sqlite)['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(src, file));
    expect(naming).toEqual([]);
  });

  it('the scout sub-agent tool is an agent: it loads packs and core only, and no model SDK until a model is given', () => {
    const tool = join(src, 'agents', 'scout', 'scout-tool.ts');
    const { modules, packages } = reachFrom(tool);
    expect(
      modules
        .map((module) => module.split('/')[0])
        .filter((layer) => layer !== 'agents' && layer !== 'packs' && layer !== 'core'),
    ).toEqual([]);
    expect(packages.filter((line) => HEAVY.test(line.split(' → ')[1] as string))).toEqual([]);
    // The model tier is a lazy import, and only of the scout's own module.
    expect(importsOf(tool).dynamic).toEqual(['./model-scout.js']);
    // Packs and core never reach an agent (the direction rule above, checked here by name).
    const upward = files(src)
      .filter((file) => ['core', 'packs'].includes(layerOf(file)))
      .filter((file) =>
        [...importsOf(file).static, ...importsOf(file).dynamic].some((specifier) => {
          const target = resolveLocal(file, specifier);
          return target !== undefined && layerOf(target) === 'agents';
        }),
      );
    expect(upward.map((file) => relative(src, file))).toEqual([]);
  });

  it('the core never imports OpenTelemetry (the tracer plugs in through the run observer)', () => {
    const offenders = files(join(src, 'core')).filter((file) =>
      [...importsOf(file).static, ...importsOf(file).dynamic].some((specifier) =>
        specifier.startsWith('@opentelemetry/'),
      ),
    );
    expect(offenders.map((file) => relative(src, file))).toEqual([]);
  });

  it('has no import cycle in src/ (type-only imports and re-exports count: a two-file circle is one module in two files)', () => {
    expect(importCycles(files(src))).toEqual([]);
  });

  it('the cycle check sees a cycle when there is one (two files, and three)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
      writeFileSync(join(dir, 'b.ts'), "export type { A as B } from './a.js';\n");
      writeFileSync(join(dir, 'c.ts'), "import { d } from './d.js';\nexport const c = d;\n");
      writeFileSync(join(dir, 'd.ts'), "import { e } from './e.js';\nexport const d = e;\n");
      writeFileSync(join(dir, 'e.ts'), "import { c } from './c.js';\nexport const e = c;\n");
      writeFileSync(join(dir, 'f.ts'), "import { c } from './c.js';\nexport const f = c;\n");
      const cycles = importCycles(['a', 'b', 'c', 'd', 'e', 'f'].map((name) => join(dir, `${name}.ts`))).map(
        (cycle) => cycle.split(' → ').map((file) => file.split('/').at(-1)),
      );
      expect(cycles).toEqual([
        ['a.ts', 'b.ts', 'a.ts'],
        ['c.ts', 'd.ts', 'e.ts', 'c.ts'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the core names no pack or agent concept (tool names, agent names, pack codes, chat ids), but for the listed exceptions', () => {
    expect(namingOutsideExceptions(coreNaming())).toEqual({ uncovered: [], unused: [] });
  });

  it('the naming check sees a pack word in code, a string and a comment, and not a hash digest', () => {
    const text = "const a = 'fs_tree'; // the Fisherman\nhash.digest('hex'); const chatId = 1;";
    expect([...text.matchAll(PACK_OR_AGENT_WORDS)].map((m) => m[0])).toEqual([
      'fs_tree',
      'Fisherman',
      'chatId',
    ]);
  });

  it('has no module-level mutable state (no top-level let)', () => {
    const offenders = files(src).filter((file) => /^let\s/m.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(src, file))).toEqual([]);
  });
});
