import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** The per-run XDG folders every test worker (and every CLI it spawns) uses. */
export interface TestXdg {
  cache: string;
  state: string;
  /** XDG_RUNTIME_DIR: where resident records servers a CLI starts put their sockets. */
  runtime: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    tallyXdg: TestXdg;
  }
}

/**
 * Once per `vitest run`: one temporary XDG_CACHE_HOME and XDG_STATE_HOME for the whole run,
 * removed at the end — so no test (nor a CLI it spawns) writes a records index into the real
 * ~/.cache or a ledger list into the real ~/.local/state. Workers pick the folders up in
 * `xdg-setup.ts`; this process points at them too, for anything it spawns itself.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'tally-vitest-xdg-'));
  const xdg: TestXdg = {
    cache: join(dir, 'cache'),
    state: join(dir, 'state'),
    runtime: join(dir, 'runtime'),
  };
  mkdirSync(xdg.cache, { mode: 0o700 });
  mkdirSync(xdg.state, { mode: 0o700 });
  mkdirSync(xdg.runtime, { mode: 0o700 });
  project.provide('tallyXdg', xdg);
  const before = {
    cache: process.env.XDG_CACHE_HOME,
    state: process.env.XDG_STATE_HOME,
    runtime: process.env.XDG_RUNTIME_DIR,
  };
  process.env.XDG_CACHE_HOME = xdg.cache;
  process.env.XDG_STATE_HOME = xdg.state;
  process.env.XDG_RUNTIME_DIR = xdg.runtime;
  return () => {
    for (const [name, value] of [
      ['XDG_CACHE_HOME', before.cache],
      ['XDG_STATE_HOME', before.state],
      ['XDG_RUNTIME_DIR', before.runtime],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    // Resident records servers started by a test's CLI see their socket go and exit.
    rmSync(dir, { recursive: true, force: true });
  };
}
