import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installTarball, packTarball } from './install-tarball.js';
import { REPO } from './readme-project.js';
import { readmeShellCommands, stripComment } from './readme-shell.js';

/**
 * Every shell command of the README runs here as a reader would type it — in a project where
 * the package is installed (`npx tally`) and on the PATH (`tally`), with the clone's sample
 * files beside it, and HOME, XDG_STATE_HOME and XDG_CACHE_HOME of its own — or is listed
 * below with the reason it cannot run offline. A new README command that is neither fails.
 */

const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const HAS_CHROMIUM = existsSync(process.env.TALLY_CHROMIUM ?? '/usr/bin/chromium');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

interface Expectation {
  /** Exit status (default 0). */
  code?: number;
  /** What a reader sees on stdout. */
  shows?: (string | RegExp)[];
  /** Further checks, in the project folder. */
  check?: (outcome: Outcome, project: string) => void;
  /** Remembers the run id printed (group 1) as RUN_ID for the commands after it. */
  remember?: RegExp;
}

type Plan =
  | { skip: string }
  | ({ kind: 'run'; instead?: { command: string; because: string } } & Expectation)
  /** A server the README starts for the commands after it: run on a free port, its URL substituted. */
  | { kind: 'serve'; ready: RegExp; readmeUrl: string };

const NEEDS_MODEL = 'needs a model key (a Coder turn calls the model; there is no key here)';
const DEV =
  'a development check of this repository, a CI step of its own; rerunning it in a test doubles the suite';

/** README command (whitespace collapsed, comment removed) → how this test runs it, or why not. */
const PLANS: Record<string, Plan> = {
  // Install
  'npm ci && npm pack': {
    skip: 'npm ci installs from the registry (network); the packed tarball is tested by test/package/pack-install.test.ts',
  },
  'npm install /path/to/tally-harness-0.1.0.tgz': {
    skip: "installs the tarball's dependencies from the registry (network); done by test/package/pack-install.test.ts",
  },
  'npm install -g /path/to/tally-harness-0.1.0.tgz': {
    skip: 'a global install from the registry (network), outside any temp folder',
  },
  'npm install git+https://HOST/PATH/tally.git': { skip: 'clones from a git host (network)' },

  // Quickstart
  'npm ci && npm run demo': {
    kind: 'run',
    instead: {
      command: 'npx tally demo',
      because:
        '`npm ci` needs the registry, and `npm run demo` may rebuild dist/ (when stale) under the feet of tests running alongside; the rest of the script is `node bin/tally.js demo`, which is `npx tally demo` where the package is installed',
    },
    shows: [
      /TYPE\s+ID\s+TITLE\s+VIA\s+READ BACK/,
      /suite\s+101\s+Suite 1 · [0-9a-f]{6}\s+POST \/api\/alpha-shop\/suites → 201\s+✓ GET 200/,
      'All 8 items verified in the ledger and confirmed through the API. Ending: finished.',
    ],
    remember: /^Run (run_\w+) · ledger /m,
  },
  'npm ci && npm test': { skip: 'npm ci needs the registry, and npm test is this suite itself' },
  'npx tally runs': {
    kind: 'run',
    shows: [
      /^RUN\s+AGENT\s+PROJECT\s+STARTED\s+ENDING\s+STATUS\s+TOOLS\s+TASK/,
      /fisherman\s+.*\s+finished\s+success\s+8\s+2 suites with 3 tests each/,
    ],
  },
  'npx tally runs show RUN_ID': {
    kind: 'run',
    shows: [
      'agent fisherman',
      'task: 2 suites with 3 tests each',
      /tool\s+request ok/,
      /claim\s+verified/,
      'end    finished (success)',
      'net effects:',
    ],
  },
  'npx tally verify RUN_ID': {
    kind: 'run',
    shows: [
      /recorded: {3}success · finished · 8 verified, 0 dropped/,
      /recomputed: success · finished · 8 verified, 0 dropped/,
      '✓ The ledger reproduces the recorded verdict.',
    ],
  },
  'npx tally runs show RUN_ID --json': {
    kind: 'run',
    check: ({ stdout }) => {
      const record = JSON.parse(stdout) as { run: { agent: string }; entries: { kind: string }[] };
      expect(record.run.agent).toBe('fisherman');
      expect(record.entries.filter((entry) => entry.kind === 'tool_call')).toHaveLength(8);
      expect(record.entries.at(-1)?.kind).toBe('end');
    },
  },
  'npx tally report RUN_ID': {
    kind: 'run',
    shows: [/^Wrote \/.*\/tally-report-run_\w+\.html$/m],
    check: ({ stdout }, project) => {
      const file = stdout.trim().replace(/^Wrote /, '');
      expect(dirname(file)).toBe(project);
      const html = readFileSync(file, 'utf8');
      expect(html).toMatch(/^<!doctype html>/i);
      expect(html).toContain('2 suites with 3 tests each');
    },
  },
  'npx tally stats --since 7d': {
    kind: 'run',
    // The demo's fish run and its read-back run.
    shows: ['Ending reasons:', /finished\s+2/, /fisherman-read-back\s+100\.0%/, 'Fail-opens by why:'],
  },

  // Fisherman
  'npx tally demo-app --port 4000': {
    kind: 'serve',
    ready: /Demo app on (http:\/\/127\.0\.0\.1:\d+) — sign in as demo@tally\.test/,
    readmeUrl: 'http://127.0.0.1:4000',
  },
  'npx tally fish "2 suites with 3 tests each" --captures demo/captures/demo-app.har --base-url http://127.0.0.1:4000 --scope /projects/alpha-shop --login demo':
    {
      kind: 'run',
      shows: [
        /TYPE\s+ID\s+TITLE\s+VIA/,
        'success · ending finished · deterministic tier',
        'Verified 8 items.',
      ],
      remember: /^To undo: tally fish cleanup (run_\w+)$/m,
    },
  'npx tally fish cleanup RUN_ID': {
    kind: 'run',
    shows: [
      /DELETE \/api\/alpha-shop\/suites\/\d+\s+204\s+404\s+deleted/,
      /Cleaned 8 of 8 resources created by run_\w+: 8 deleted and confirmed/,
    ],
  },

  // Fisherman from an OpenAPI document (the demo app above serves its own)
  'npx tally fish "2 suites with 3 tests each" --spec http://127.0.0.1:4000/api/openapi.json --scope /projects/alpha-shop --login demo':
    {
      kind: 'run',
      shows: [
        /suite\s+\d+\s+Suite 1 · [0-9a-f]{6}\s+POST \/api\/alpha-shop\/suites → 201/,
        'success · ending finished · deterministic tier',
        'Verified 8 items.',
      ],
      remember: /^To undo: tally fish cleanup (run_\w+)$/m,
    },
  'npx tally fish "1 suite with 2 tests" --spec http://127.0.0.1:4000/api/openapi.json --scope /projects/alpha-shop --login demo --emit playwright setup.ts':
    {
      kind: 'run',
      shows: ['Verified 3 items.', /^Wrote a Playwright fixture recreating 3 items to \/.*\/setup\.ts$/m],
      check: (_outcome, project) => {
        expect(readFileSync(join(project, 'setup.ts'), 'utf8')).toContain('/api/alpha-shop/suites');
      },
    },
  'npx tally fish recipes': {
    kind: 'run',
    shows: [
      'No recipes yet. A request the model solves (with --model) is kept as a recipe for its app and shape.',
    ],
  },

  // Records
  'npx tally records query --root $R --keyword "migration lock"': {
    kind: 'run',
    shows: [/^references\/failure-modes\/migration-lock\.md — /m],
  },
  'npx tally records query --root $R --kind procedure --project acme/shop --full': {
    kind: 'run',
    shows: ['==> references/procedures/release-a-version.md <==', 'kind: procedure', 'project: acme/shop'],
  },
  'npx tally records query --root $R --cat references/decisions/use-postgres.md plans/q4-search.md': {
    kind: 'run',
    shows: ['==> references/decisions/use-postgres.md <==', '==> plans/q4-search.md <=='],
  },
  'npx tally records query --root $R --recall "race-condition"': {
    kind: 'run',
    shows: [/^recall: \d+ matched/m, /^mistakes\.jsonl:\d+ — .*race condition/m],
  },
  'npx tally records query --root $R --list-stores': {
    kind: 'run',
    shows: [/^references\/decisions\t\d+ records?$/m, /^references\/research\t\(missing\)$/m],
  },
  'npx tally records lint --root $R': {
    // The sample corpus carries one broken link on purpose, so lint has something to report.
    kind: 'run',
    code: 1,
    shows: ['link solutions/SOL-missing does not resolve to a record', /^\d+ records, 1 problem$/m],
  },
  'npx tally scout "release a version of acme/shop" --root $R --session demo': {
    kind: 'run',
    shows: [
      'GOAL: release a version of acme/shop',
      'GOVERNS:',
      'references/procedures/release-a-version.md',
      'COMMANDS:',
      /^run run_\w+ · success · finished$/m,
    ],
  },
  'npx tally digest read --root $R --session demo': {
    kind: 'run',
    shows: ['digests: 1 for session demo', 'GOAL: release a version of acme/shop'],
  },

  // The Claude Code plugin, and MCP clients
  'npm i -D <path-or-registry-spec-of-tally>': {
    skip: 'a placeholder for where the package comes from (the registry: network)',
  },
  'claude --plugin-dir node_modules/tally-harness/plugin': {
    skip: 'needs Claude Code (an interactive session with its own model)',
  },
  'claude plugin marketplace add /path/to/marketplace': {
    skip: 'needs a marketplace folder; test/e2e/claude-code/claude-gates.test.ts installs one with the real Claude Code',
  },
  'claude plugin install tally@tally-local': {
    skip: 'follows the marketplace above; installed and run by test/e2e/claude-code/claude-gates.test.ts',
  },
  'claude -p "create hello.txt" --plugin-dir node_modules/tally-harness/plugin --allowedTools \'Bash(node "/abs/path/node_modules/tally-harness/plugin/bin/tally.js" scout:*)\' Write':
    {
      skip: 'needs Claude Code and a model; run offline against a scripted Messages API by test/e2e/claude-code/claude-gates.test.ts',
    },
  'claude mcp add tally -- tally mcp --root /path/to/project': {
    skip: 'needs Claude Code; the server it adds is tested by test/surfaces/mcp/mcp-stdio.test.ts',
  },

  // Coder
  'tally code --root ~/src/app "the Save button does nothing; fix it"': { skip: NEEDS_MODEL },
  'tally code --root ~/src/app --chat chat_… "now add a test"': {
    skip: `${NEEDS_MODEL}, and a chat from an earlier turn`,
  },
  'tally code --root ~/src/app': { skip: `an interactive chat on a terminal (a TTY), and ${NEEDS_MODEL}` },
  'tally code --root ~/src/app --ui --port 4100': {
    skip: `a chat page for a person in a browser, and ${NEEDS_MODEL}; the page is tested by test/surfaces/web-chat.test.ts`,
  },
  'cp -r demo/coder-sample/site /tmp/site': {
    kind: 'run',
    check: (_outcome, project) =>
      expect(existsSync(join(project, 'tmp-site', 'preview-server.mjs'))).toBe(true),
  },
  'node /tmp/site/preview-server.mjs --port 4178 &': {
    kind: 'serve',
    ready: /Preview: (http:\/\/127\.0\.0\.1:\d+)\//,
    readmeUrl: 'http://127.0.0.1:4178',
  },
  'tally code --root /tmp/site --replay demo/coder-sample/ui-task.cassette.json --var PREVIEW_URL=http://127.0.0.1:4178/':
    {
      kind: 'run',
      // Without Chromium the browser check fails honestly and so does the turn (see the README).
      code: HAS_CHROMIUM ? 0 : 1,
      shows: [
        'Did you mean "app.js"?',
        /↻ nudge \(silence\)/,
        ...(HAS_CHROMIUM
          ? [/✓ browser_console http:\/\/127\.0\.0\.1:\d+\/ — chromium GET .* → HTTP 200, 0 console error/]
          : []),
        /CHANGELOG\.md\s+created\s+106\s+[0-9a-f]{12}/,
        /app\.js\s+updated\s+261\s+[0-9a-f]{12}/,
      ],
      check: (_outcome, project) =>
        expect(readFileSync(join(project, 'tmp-site', 'app.js'), 'utf8')).toContain(
          "getElementById('counter')",
        ),
    },

  // Development
  'npm ci': { skip: 'installs from the registry (network)' },
  'npm test': { skip: 'this suite itself' },
  'npm run lint': { skip: DEV },
  'npm run typecheck': { skip: DEV },
  'npm run bench': {
    skip: 'times every records mode against the shell tool (minutes); run on demand, results in bench/.out',
  },
  'npm run bench:truth': {
    skip: 'the adversarial truth suite, whose scenarios npm test already runs (test/truth)',
  },
  'npm run mutate': { skip: 'StrykerJS mutation testing: slow, on demand only' },
};

/**
 * README paths outside the project, mapped into it. `/tmp/site` is the reader's scratch
 * copy: here it lives in this test's folder, so parallel runs never share one.
 */
const PATHS: [string, string][] = [['/tmp/site', 'tmp-site']];

describe('README shell commands', () => {
  const commands = readmeShellCommands(README);

  it('finds the blocks: every command is either run below or listed with the reason it cannot run offline', () => {
    expect(commands.length).toBeGreaterThanOrEqual(30);
    const unplanned = commands.filter((command) => !(command.text in PLANS));
    expect(
      unplanned.map((command) => `README line ${command.line}: ${command.text}`),
      'a README command with no plan: run it in PLANS, or list it with the reason it cannot run offline',
    ).toEqual([]);
    const stale = Object.keys(PLANS).filter((text) => !commands.some((command) => command.text === text));
    expect(stale, 'plans for commands the README no longer has').toEqual([]);
    for (const [text, plan] of Object.entries(PLANS))
      if ('skip' in plan) expect(plan.skip.length, text).toBeGreaterThan(10);
  });

  it('reads commands the way a shell does: comments, continuations, console prompts, setup lines', () => {
    expect(stripComment('npx tally runs   # newest first')).toBe('npx tally runs');
    expect(stripComment('tally fish "a # b" --x # note')).toBe('tally fish "a # b" --x');
    expect(stripComment('echo a#b')).toBe('echo a#b');
    const parsed = readmeShellCommands(
      [
        'text',
        '```sh',
        '# a comment line',
        'X=1   # setup',
        'one $X \\',
        '  --two',
        '```',
        '  ```console',
        '  $ three',
        '  output of three',
        '  ```',
      ].join('\n'),
    );
    expect(parsed.map(({ line, text, setup }) => ({ line, text, setup }))).toEqual([
      { line: 5, text: 'one $X --two', setup: ['X=1'] },
      { line: 9, text: 'three', setup: [] },
    ]);
  });

  describe('run as written, offline, in a fresh project', () => {
    // Made in beforeAll, so a run that filters these tests out leaves no folder behind.
    let work = '';
    let project = '';
    const vars: Record<string, string> = {};
    const urls: [string, string][] = [];
    const servers: ChildProcess[] = [];
    let env: NodeJS.ProcessEnv = {};

    let skipped: string | undefined;

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), 'tally-readme-sh-'));
      project = join(work, 'project');
      if (!existsSync(join(REPO, 'dist', 'surfaces', 'cli', 'main.js')))
        throw new Error('dist/ is missing: run `npm run build` (npm test does it for you).');
      // The packed tarball installed as a user installs it: `npx tally` resolves it here, never
      // from the registry, and runs what the package ships (not this checkout's files).
      mkdirSync(project);
      const { tarball } = await packTarball(work);
      const installed = await installTarball(project, tarball);
      if (installed.notCached)
        console.warn(`README shell: the npm cache lacked ${installed.notCached}: installed --prefer-offline`);
      skipped = installed.skipped;
      if (skipped) console.warn(`SKIPPED README shell commands: ${skipped}`);
      // The clone's sample files the commands name by relative path.
      for (const path of ['demo/captures', 'demo/coder-sample', 'test/fixtures/records'])
        cpSync(join(REPO, path), join(project, path), { recursive: true });
      // A global install: plain `tally` on the PATH.
      const bin = join(work, 'bin');
      mkdirSync(bin);
      symlinkSync(join(project, 'node_modules', 'tally-harness', 'bin', 'tally.js'), join(bin, 'tally'));
      const home = join(work, 'home');
      mkdirSync(home);
      // Only what a fresh shell has: no model keys, no TALLY_* or OTEL_* settings of the caller.
      env = {
        PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        HOME: home,
        XDG_STATE_HOME: join(work, 'state'),
        XDG_CACHE_HOME: join(work, 'cache'),
        TMPDIR: tmpdir(),
        LANG: 'C.UTF-8',
        NO_COLOR: '1',
        ...(process.env.TALLY_CHROMIUM ? { TALLY_CHROMIUM: process.env.TALLY_CHROMIUM } : {}),
        npm_config_offline: 'true',
        npm_config_update_notifier: 'false',
        npm_config_fund: 'false',
        npm_config_audit: 'false',
      };
    }, 900_000);

    afterAll(async () => {
      for (const server of servers) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        // Its own process group (npx runs the server as a grandchild): ended by this id only.
        if (server.exitCode === null && server.pid) process.kill(-server.pid, 'SIGTERM');
        await exited;
      }
      if (work) rmSync(work, { recursive: true, force: true });
    });

    /** The command with the README's placeholders, ports and scratch paths made real. */
    const prepare = (script: string): string => {
      let out = script;
      for (const [from, to] of PATHS) out = out.replaceAll(from, join(project, to));
      for (const [from, to] of urls) out = out.replaceAll(from, to);
      if (out.includes('RUN_ID')) {
        if (!vars.RUN_ID) throw new Error('RUN_ID is used before any command printed a run id');
        out = out.replaceAll('RUN_ID', vars.RUN_ID);
      }
      return out;
    };

    const shell = (script: string): Promise<Outcome> =>
      new Promise((resolve, reject) => {
        const child = spawn('bash', ['-c', script], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
        });
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
        });
        child.once('error', reject);
        child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      });

    const serve = (script: string, plan: Extract<Plan, { kind: 'serve' }>): Promise<void> =>
      new Promise((resolve, reject) => {
        const port = new URL(plan.readmeUrl).port;
        // The README's fixed port may be taken on this machine: a free one, and its URL used after.
        const command = script.replace(/\s*&$/, '').replace(`--port ${port}`, '--port 0');
        const child = spawn('bash', ['-c', `exec ${command}`], {
          cwd: project,
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        servers.push(child);
        let seen = '';
        const timer = setTimeout(() => reject(new Error(`not ready after 20 s: ${seen}`)), 20_000);
        const onData = (chunk: Buffer) => {
          seen += chunk;
          const url = plan.ready.exec(seen)?.[1];
          if (!url) return;
          clearTimeout(timer);
          urls.push([plan.readmeUrl, url]);
          resolve();
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', (chunk: Buffer) => {
          seen += chunk;
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`exited (${code}) before it was ready: ${seen}`));
        });
      });

    for (const command of commands) {
      const plan = PLANS[command.text];
      if (!plan || 'skip' in plan) continue;
      const shown =
        plan.kind === 'run' && plan.instead ? `${command.text} (as ${plan.instead.command})` : command.text;
      it(`README line ${command.line}: ${shown}`, async (test) => {
        if (skipped) test.skip(skipped);
        const script = [...command.setup, prepare(command.script)].join('\n');
        if (plan.kind === 'serve') return serve(prepare(command.script), plan);
        if (plan.instead) {
          // What the README's script does after its build step, checked to be so.
          const scripts = (
            JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
              scripts: Record<string, string>;
            }
          ).scripts;
          expect(scripts.demo).toMatch(/^node scripts\/build-if-stale\.mjs && node bin\/tally\.js demo$/);
        }
        const outcome = await shell(plan.instead ? plan.instead.command : script);
        const context = `${command.text}\n--- stdout\n${outcome.stdout}\n--- stderr\n${outcome.stderr}`;
        expect(outcome.code, context).toBe(plan.code ?? 0);
        for (const expected of plan.shows ?? []) {
          if (typeof expected === 'string') expect(outcome.stdout, context).toContain(expected);
          else expect(outcome.stdout, context).toMatch(expected);
        }
        plan.check?.(outcome, project);
        if (plan.remember) {
          const runId = plan.remember.exec(outcome.stdout)?.[1];
          expect(runId, context).toBeTruthy();
          vars.RUN_ID = runId as string;
        }
      });
    }
  });
});
