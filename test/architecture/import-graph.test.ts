import { readdirSync, readFileSync } from 'node:fs';
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

/** Follows static imports from an entry file; lists every heavy package it would load. */
function heavyImportsFrom(entry: string): { seen: number; loaded: string[] } {
  const seen = new Set<string>();
  const loaded: string[] = [];
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of importsOf(file).static) {
      const target = resolveLocal(file, specifier);
      if (target) walk(target);
      else if (HEAVY.test(specifier)) loaded.push(`${relative(src, file)} → ${specifier}`);
    }
  };
  walk(entry);
  return { seen: seen.size, loaded };
}

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
    for (const entry of ['records-command.ts', 'scout-command.ts', 'hook-digest-record-command.ts']) {
      expect(heavyImportsFrom(join(src, 'surfaces', 'cli', entry)).loaded, entry).toEqual([]);
    }
  });

  it('the core never imports OpenTelemetry (the tracer plugs in through the run observer)', () => {
    const offenders = files(join(src, 'core')).filter((file) =>
      [...importsOf(file).static, ...importsOf(file).dynamic].some((specifier) =>
        specifier.startsWith('@opentelemetry/'),
      ),
    );
    expect(offenders.map((file) => relative(src, file))).toEqual([]);
  });

  it('has no module-level mutable state (no top-level let)', () => {
    const offenders = files(src).filter((file) => /^let\s/m.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(src, file))).toEqual([]);
  });
});
