// Agent surfaces: an agent declared with defineAgentSurface becomes a `tally` command — the
// built-in scout that way, and a user's agent from --surface-module without an edit to main.ts.
// The built CLI in a child process, real SQLite files, a scripted model (no key).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/core/sqlite/open-sqlite.js';
import { Ledger } from '../../src/index.js';
import {
  AgentSurfaceDefinitionError,
  defineAgentSurface,
  isAgentSurface,
} from '../../src/surfaces/agent-surface.js';
import { BUILT_IN_AGENT_SURFACES, surfaceModulesIn } from '../../src/surfaces/cli/agent-surface-commands.js';

import { runTally, tempDir } from '../helpers.js';

const repo = resolve(import.meta.dirname, '..', '..');
const fixtures = join(repo, 'test', 'fixtures', 'surfaces');
const SHOP = join(fixtures, 'shop-surface.ts');
// TypeScript fixtures load through tsx, resolved from the repository.
const tsx = { cwd: repo, env: { NODE_OPTIONS: '--import tsx' } };

function shopDb(): string {
  const path = join(tempDir(), 'shop.db');
  const db = openSqlite(path);
  db.exec(
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO items VALUES (1, 'Lamp')",
  );
  db.close();
  return path;
}

describe('an agent surface from --surface-module reaches the CLI', () => {
  it('runs as `tally shop`: the row is made, the run is in the ledger, the claim on a row only read is dropped (exit 1)', async () => {
    const db = shopDb();
    const ledgerPath = join(tempDir(), 'ledger.db');
    const run = await runTally(
      ['--surface-module', SHOP, '--ledger', ledgerPath, 'shop', 'Add a chair', '--db', db],
      tsx,
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('partial: ✓ created items/7; dropped 1\n');
    expect(run.code).toBe(1);
    const check = openSqlite(db, { fileMustExist: true });
    expect(check.prepare('SELECT name FROM items WHERE id = 7').get()).toEqual({ name: 'Chair' });
    check.close();
    const ledger = Ledger.open(ledgerPath, { readonly: true });
    try {
      expect(ledger.listRuns({ agent: 'shopkeeper' })).toHaveLength(1);
    } finally {
      ledger.close();
    }
    // The flag after the command name works the same (a global option), and so does `=PATH`.
    const json = await runTally(
      ['--ledger', ledgerPath, 'shop', 'Add a chair', '--db', shopDb(), '--json', `--surface-module=${SHOP}`],
      tsx,
    );
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'partial' });
  });

  it('lists it in tally --help only when the module is named; its own --help shows its argument and options', async () => {
    const withModule = await runTally(['--surface-module', SHOP, '--help'], tsx);
    expect(withModule.code).toBe(0);
    expect(withModule.stdout).toMatch(/\n {2}shop \[options\] <task> +The shopkeeper over a SQLite file/);
    const without = await runTally(['--help'], tsx);
    expect(without.stdout).not.toMatch(/\n {2}shop /);
    expect(without.stdout).toMatch(/\n {2}scout \[options\] <goal> +Find the records that govern a goal/);
    const help = await runTally(['--surface-module', SHOP, 'shop', '--help'], tsx);
    expect(help.stdout).toContain('--db <file>  the SQLite database file');
    const unknown = await runTally(['shop', 'x'], tsx);
    expect(unknown.code).toBe(2);
  });

  it("adds the surface's stats contributor to tally stats", async () => {
    const ledgerPath = join(tempDir(), 'ledger.db');
    await runTally(
      ['--surface-module', SHOP, '--ledger', ledgerPath, 'shop', 'Add a chair', '--db', shopDb()],
      tsx,
    );
    const stats = await runTally(['--surface-module', SHOP, '--ledger', ledgerPath, 'stats', '--json'], tsx);
    expect(stats.stderr).toBe('');
    expect(JSON.parse(stats.stdout).sqlWrites).toEqual({ ok: 1 });
    const without = await runTally(['--ledger', ledgerPath, 'stats', '--json'], tsx);
    expect(JSON.parse(without.stdout)).not.toHaveProperty('sqlWrites');
  });

  it('refuses a module with no surface, one that cannot load, and a surface named like a command (exit 2, nothing run)', async () => {
    const empty = await runTally(['--surface-module', join(fixtures, 'not-a-surface.ts'), 'runs'], tsx);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(
      'not-a-surface.ts exports no agent surface. Export one built with defineAgentSurface',
    );
    expect(empty.stdout).toBe('');
    const missing = await runTally(['--surface-module', join(fixtures, 'nowhere.js'), 'runs'], tsx);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--surface-module .*nowhere\.js could not be loaded: /);
    const clash = await runTally(
      ['--surface-module', join(fixtures, 'scout-again.ts'), 'scout', 'x', '--json'],
      tsx,
    );
    expect(clash.code).toBe(2);
    expect(JSON.parse(clash.stdout).error).toMatchObject({
      code: 'AGENT_SURFACE_TAKEN',
      message: expect.stringContaining('"scout", but tally already has a command of that name'),
    });
  });
});

describe('defineAgentSurface', () => {
  const cli = { arguments: [], options: [], run: async () => 0 };

  it('checks the declaration where it is written', () => {
    expect(() => defineAgentSurface({ name: 'Shop Keeper', description: 'x', cli })).toThrow(
      AgentSurfaceDefinitionError,
    );
    expect(() => defineAgentSurface({ name: 'shop', description: ' ', cli })).toThrow(/needs a description/);
    expect(() =>
      defineAgentSurface({
        name: 'shop',
        description: 'x',
        cli: { ...cli, arguments: [{ name: 'task', description: '' }] },
      }),
    ).toThrow(/argument "task" is not <name>/);
    expect(() =>
      defineAgentSurface({
        name: 'shop',
        description: 'x',
        cli: { ...cli, options: [{ flags: 'db', description: '' }] },
      }),
    ).toThrow(/option "db" is not --name/);
    const surface = defineAgentSurface({ name: 'shop', description: 'x', cli });
    expect(isAgentSurface(surface)).toBe(true);
    // Recognised by the Symbol.for mark, as a copy compiled against another tally-harness would be.
    expect(isAgentSurface({ ...surface })).toBe(true);
    expect(isAgentSurface({ name: 'shop', cli })).toBe(false);
  });

  it("the CLI fast-path bundle keeps the built-in surfaces' command modules out (they load from dist/ when run)", () => {
    const bundle = readFileSync(join(repo, 'dist', 'fast', 'cli', 'cli.cjs'), 'utf8');
    expect(bundle).toContain('import("../../surfaces/cli/scout-command.js")');
    expect(bundle).not.toMatch(/function (scoutCommand|codeCommand)\b/);
  });

  it('scout is a built-in surface, and --surface-module is read from the raw arguments up to --', () => {
    expect(BUILT_IN_AGENT_SURFACES.map((surface) => surface.name)).toEqual(['scout', 'code']);
    expect(
      surfaceModulesIn([
        'node',
        'tally',
        '--surface-module',
        'a.js',
        'x',
        '--surface-module=b.js',
        '--',
        '--surface-module',
        'c.js',
      ]),
    ).toEqual(['a.js', 'b.js']);
  });
});
