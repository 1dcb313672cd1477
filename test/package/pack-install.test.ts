import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoApp } from '../../src/demo-app/server.js';
import { interruptOnFirstRequest, tempDir } from '../helpers.js';
import { installTarball, NPM_ENV, packTarball } from './install-tarball.js';
import { REPO } from './readme-project.js';

const exec = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, unknown>;
};

/** The import of every public entry a user writes, and a use of each that only type-checks if the types are right. */
const CONSUMER = `import { defineTool, Ledger, runAgent, runPlan, type RunResult, TallyError, withRunObserver } from '${pkg.name}';
import { startTelemetry } from '${pkg.name}/telemetry';
import { callTool, scriptedModel, startAimock } from '${pkg.name}/testing';
import { cleanupRun, prepareData, type PrepareDataResult } from '${pkg.name}/fisherman';
import { ProjectRoot, workspaceTools } from '${pkg.name}/workspace';
import { catRecords, openRecordSource, recall, recordsTools } from '${pkg.name}/records';
import { runDeterministicScout, runModelScout, type ScoutReport } from '${pkg.name}/scout';
import { runTurn, type TurnResult } from '${pkg.name}/coder';
import { createMcpServer, type McpSession } from '${pkg.name}/mcp';

export const entries = [defineTool, Ledger, runAgent, TallyError, callTool, scriptedModel, cleanupRun, prepareData,
  ProjectRoot, workspaceTools, catRecords, openRecordSource, recall, recordsTools, runDeterministicScout, runTurn,
  createMcpServer, runPlan, withRunObserver, startTelemetry, runModelScout, startAimock];
export type Results = [RunResult, PrepareDataResult, ScoutReport, TurnResult, McpSession];
export const status: RunResult['status'] = 'success';
// @ts-expect-error a status the public type does not allow
export const wrong: RunResult['status'] = 'done';
`;

describe(`the packed ${pkg.name} tarball, installed into an empty project`, () => {
  // Shared by every test below, so not a per-test tempDir (those go after each test).
  const project = mkdtempSync(join(tmpdir(), 'tally-install-'));
  const packs = mkdtempSync(join(tmpdir(), 'tally-pack-'));
  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
    rmSync(packs, { recursive: true, force: true });
  });
  let tarball = '';
  let skipped: string | undefined;

  beforeAll(async () => {
    // dist/ was just built (npm test builds first); packTarball keeps `prepare` from rebuilding it.
    const packed = await packTarball(packs);
    tarball = packed.tarball;
    const paths = packed.paths;
    expect(paths).toContain('bin/tally.js');
    expect(paths).toContain('dist/surfaces/cli/main.js');
    expect(paths).toContain('demo/captures/demo-app.har');
    expect(paths.filter((path) => path.startsWith('src/') || path.startsWith('test/'))).toEqual([]);
    const installed = await installTarball(project, tarball);
    if (installed.notCached)
      console.warn(
        `pack-and-install: the npm cache lacked ${installed.notCached}: installed --prefer-offline`,
      );
    skipped = installed.skipped;
    if (skipped) console.warn(`SKIPPED pack-and-install: ${skipped}`);
  }, 900_000);

  const npx = (args: string[]) =>
    exec('npx', ['--no-install', ...args], {
      cwd: project,
      env: { ...NPM_ENV, NO_COLOR: '1' },
      timeout: 120_000,
    });

  it('npx tally --version prints the package version', async (context) => {
    if (skipped) context.skip(skipped);
    const { stdout } = await npx(['tally', '--version']);
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('npx tally demo exits 0 with the 8 items confirmed', async (context) => {
    if (skipped) context.skip(skipped);
    const { stdout } = await npx(['tally', 'demo']);
    expect(stdout).toContain('All 8 items verified in the ledger and confirmed through the API.');
  }, 120_000);

  it('npx tally mcp --root DIR lists its tools to the MCP SDK client over stdio', async (context) => {
    if (skipped) context.skip(skipped);
    const root = tempDir('tally-install-root-');
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no-install', 'tally', 'mcp', '--root', root],
      cwd: project,
      env: { ...NPM_ENV, TALLY_LEDGER: '' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'pack-install-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['fs_read', 'fs_write', 'fs_edit']),
    );
  }, 60_000);

  it('tally doctor: every piece present (playwright-core came as an optional dependency), exit 0', async (context) => {
    if (skipped) context.skip(skipped);
    const { stdout } = await npx(['tally', 'doctor']);
    expect(stdout).toMatch(/^✓ playwright-core +installed/m);
    expect(stdout).toMatch(
      /^✓ SQLite \((better-sqlite3|node:sqlite)\) +(the native module loads|built into Node)/m,
    );
    expect(stdout).toMatch(
      /^✓ Claude Code plugin +ready: claude --plugin-dir .*node_modules\/tally-harness\/plugin$/m,
    );
    expect(stdout).toContain('Everything Tally uses is here.');
  }, 60_000);

  it('exit codes from the installed CLI: 2 with a one-line hint, 3 for a ledger that is not a database', async (context) => {
    if (skipped) context.skip(skipped);
    const usage = await npx(['tally', 'fsh']).catch((error: { code: number; stderr: string }) => error);
    expect((usage as { code: number }).code).toBe(2);
    expect((usage as { stderr: string }).stderr.trim().split('\n')).toEqual([
      "error: unknown command 'fsh'",
      '(Did you mean fish?)',
      'Run `tally --help` for usage.',
    ]);
    writeFileSync(join(project, 'notadb.db'), 'not sqlite\n'.repeat(100));
    const ledger = await npx(['tally', 'runs', '--ledger', 'notadb.db']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect((ledger as { code: number }).code).toBe(3);
    expect((ledger as { stderr: string }).stderr).toContain('notadb.db is not a Tally ledger');
  }, 60_000);

  it('tally fish --spec --login from the installed package: exit 0, 0 model calls; verify 0; cleanup 0; verify --live 4 once the items are gone', async (context) => {
    if (skipped) context.skip(skipped);
    const app = await startDemoApp({ port: 0 });
    const code = (run: Promise<{ stdout: string }>) =>
      run.then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    try {
      const fish = await code(
        npx([
          'tally',
          'fish',
          '2 suites with 3 tests each',
          '--spec',
          `${app.url}/api/openapi.json`,
          '--login',
          'demo',
          '--scope',
          '/projects/alpha-shop',
          '--json',
        ]),
      );
      expect(fish.code, fish.stdout).toBe(0);
      const result = JSON.parse(fish.stdout) as {
        runId: string;
        tier: string;
        counts: { modelCalls: number };
        verified: unknown[];
      };
      expect(result).toMatchObject({ tier: 'deterministic', counts: { modelCalls: 0 } });
      expect(result.verified).toHaveLength(8);
      expect(app.store.suites.size).toBe(2);
      expect((await code(npx(['tally', 'verify', result.runId]))).code).toBe(0);
      expect((await code(npx(['tally', 'fish', 'cleanup', result.runId, '--json']))).code).toBe(0);
      expect(app.store.suites.size).toBe(0);
      const drift = await code(npx(['tally', 'verify', result.runId, '--live']));
      expect(drift.code, drift.stdout).toBe(4);
    } finally {
      await app.close();
    }
  }, 180_000);

  it('exit codes 1 and 130 from the installed CLI: a record with a problem; SIGINT while creates are in flight', async (context) => {
    if (skipped) context.skip(skipped);
    const records = join(project, 'records');
    mkdirSync(join(records, 'plans'), { recursive: true });
    // A record with no keywords: `records lint` reports the problem and exits 1.
    writeFileSync(
      join(records, 'plans', 'one.md'),
      '---\nid: PLAN-one\nkind: plan\ndate: 2026-01-01\nkeywords: []\nlinks: {}\nstatus: active\n---\nThe only plan.\n',
    );
    const lint = await npx(['tally', 'records', 'lint', '--root', records]).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect((lint as { code: number }).code, (lint as { stdout: string }).stdout).toBe(1);
    expect((lint as { stdout: string }).stdout).toMatch(/1 record, [1-9]\d* problems?/);

    // Accepts every request and never answers: the creates stay in flight until the interrupt.
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const { code, stdout } = await interruptOnFirstRequest(
        {
          bin: join(project, 'node_modules', '.bin', 'tally'),
          args: [
            'fish',
            '2 suites',
            '--captures',
            join(project, 'node_modules', pkg.name, 'demo', 'captures', 'demo-app.har'),
            '--base-url',
            `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`,
            '--scope',
            '/projects/alpha-shop',
          ],
          cwd: project,
          env: { ...NPM_ENV, NO_COLOR: '1', TALLY_MODEL: '', TALLY_INTERRUPT_GRACE_MS: '200' },
        },
        hanging,
        'SIGINT',
      );
      expect(code).toBe(130);
      expect(stdout).toMatch(/ending aborted/);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  }, 120_000);

  it('tally capture --script records a real Chromium session from the installed package', async (context) => {
    if (skipped) context.skip(skipped);
    if (!existsSync(process.env.TALLY_CHROMIUM || '/usr/bin/chromium'))
      context.skip('no Chromium on this machine');
    const app = await startDemoApp({ port: 0 });
    try {
      writeFileSync(
        join(project, 'drive.mjs'),
        "export default async ({ page, baseUrl }) => { await page.goto(`${baseUrl}/login`); await page.fill('input[name=email]', 'demo@tally.test'); await page.fill('input[name=password]', 'demo-password'); await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]); };\n",
      );
      const { stdout } = await npx([
        'tally',
        'capture',
        `${app.url}/login`,
        '--out',
        'app.har',
        '--script',
        'drive.mjs',
      ]);
      expect(stdout).toMatch(/Recorded [1-9]\d* requests into .*app\.har \(secrets redacted\)/);
      expect(stdout).toMatch(/Next: tally fish .* --login browser:drive\.mjs/);
      const har = JSON.parse(readFileSync(join(project, 'app.har'), 'utf8')) as {
        log: { entries: { request: { url: string } }[] };
      };
      expect(har.log.entries.some((entry) => entry.request.url.endsWith('/login'))).toBe(true);
      expect(JSON.stringify(har)).not.toContain('demo-password');
    } finally {
      await app.close();
    }
  }, 120_000);

  it('without playwright-core, tally capture names what to install (npm i playwright-core, and Chromium) and exits 2', async (context) => {
    if (skipped) context.skip(skipped);
    // As after `npm i --omit=optional`, or where the optional install failed: moved aside, then back.
    const installedAt = join(project, 'node_modules', 'playwright-core');
    const aside = join(project, 'playwright-core.aside');
    renameSync(installedAt, aside);
    try {
      writeFileSync(join(project, 'nothing.mjs'), 'export default async () => {};\n');
      const capture = await npx([
        'tally',
        'capture',
        'http://127.0.0.1:9/',
        '--out',
        'never.har',
        '--script',
        'nothing.mjs',
      ]).catch((error: { code: number; stdout: string; stderr: string }) => error);
      const failed = capture as { code: number; stdout: string; stderr: string };
      expect(failed.code).toBe(2);
      expect(failed.stdout).toBe('');
      const lines = failed.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^tally: .* needs playwright-core and Chromium: playwright-core is not installed \(npm i playwright-core\)(; and no Chromium at .*)?\. Install what is missing, then check with `tally doctor`\.$/,
      );
      expect(failed.stderr).not.toMatch(/bug in Tally|npm ci|Cannot find package/);
      expect(existsSync(join(project, 'never.har'))).toBe(false);
      const doctor = await npx(['tally', 'doctor']).catch((error: { code: number; stdout: string }) => error);
      expect((doctor as { code: number }).code).toBe(1);
      expect((doctor as { stdout: string }).stdout).toMatch(
        /✗ playwright-core\s+not installed[^\n]*\n\s+fix: npm i playwright-core\n/,
      );
    } finally {
      renameSync(aside, installedAt);
    }
  }, 120_000);

  it('a TypeScript file importing every public entry type-checks, and each entry imports', async (context) => {
    if (skipped) context.skip(skipped);
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          // Without skipLibCheck: every .d.ts the entries reach must resolve in a user's project
          // (startAimock's once imported the dev dependency @copilotkit/aimock: TS2307).
          skipLibCheck: false,
          noEmit: true,
          typeRoots: [join(REPO, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await exec(process.execPath, [tsc, '-p', project], { cwd: project }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout || 'tsc failed' }),
    );
    expect(checked.stdout).toBe('');

    const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json');
    const names = subpaths.map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
    const script = `for (const name of ${JSON.stringify(names)}) { const m = await import(name); if (Object.keys(m).length === 0) throw new Error(name + ' exports nothing'); }`;
    const imported = await exec(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(imported.stdout).toBe('');
  }, 120_000);
});
