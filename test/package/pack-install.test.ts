import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { REPO } from './readme-project.js';

const exec = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, unknown>;
};
const NPM_ENV = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/** Whether the npm registry answers at all: the only reason this test may skip. */
async function registryReachable(): Promise<string | undefined> {
  try {
    await exec('npm', ['ping'], { env: NPM_ENV, timeout: 30_000 });
    return undefined;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return error.message.split('\n').slice(0, 3).join(' ');
  }
}

/** The import of every public entry a user writes, and a use of each that only type-checks if the types are right. */
const CONSUMER = `import { defineTool, Ledger, runAgent, type RunResult, TallyError } from '${pkg.name}';
import { callTool, scriptedModel } from '${pkg.name}/testing';
import { cleanupRun, prepareData, type PrepareDataResult } from '${pkg.name}/fisherman';
import { ProjectRoot, workspaceTools } from '${pkg.name}/workspace';
import { catRecords, openRecordSource, recall, recordsTools } from '${pkg.name}/records';
import { runDeterministicScout, type ScoutReport } from '${pkg.name}/scout';
import { runTurn, type TurnResult } from '${pkg.name}/coder';
import { createMcpServer, type McpSession } from '${pkg.name}/mcp';

export const entries = [defineTool, Ledger, runAgent, TallyError, callTool, scriptedModel, cleanupRun, prepareData,
  ProjectRoot, workspaceTools, catRecords, openRecordSource, recall, recordsTools, runDeterministicScout, runTurn,
  createMcpServer];
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
    // dist/ was just built (npm test builds first); --ignore-scripts keeps `prepare` from
    // rebuilding it under the feet of tests running alongside.
    const packed = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], {
      cwd: REPO,
      env: NPM_ENV,
    });
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    if (!info) throw new Error('npm pack reported nothing');
    tarball = join(packs, info.filename);
    const paths = info.files.map((file) => file.path);
    expect(paths).toContain('bin/tally.js');
    expect(paths).toContain('dist/surfaces/cli/main.js');
    expect(paths).toContain('demo/captures/demo-app.har');
    expect(paths.filter((path) => path.startsWith('src/') || path.startsWith('test/'))).toEqual([]);

    await exec('npm', ['init', '-y'], { cwd: project, env: NPM_ENV });
    try {
      // better-sqlite3 compiles from source here (about 80 s); everything else comes from the cache.
      await exec('npm', ['install', '--prefer-offline', tarball], {
        cwd: project,
        env: NPM_ENV,
        timeout: 840_000,
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const unreachable = await registryReachable();
      if (unreachable === undefined) throw error;
      skipped = `the npm registry is unreachable (${unreachable}) and the cache cannot satisfy the install`;
      console.warn(`SKIPPED pack-and-install: ${skipped}`);
    }
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
          skipLibCheck: true,
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
