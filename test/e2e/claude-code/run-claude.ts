import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessagesRequest } from './anthropic-mock.js';

export const REPO = join(import.meta.dirname, '..', '..', '..');
export const CLAUDE = join(REPO, 'node_modules', '.bin', 'claude');
export const PLUGIN = join(REPO, 'plugin');

/** A private Claude Code home and a project folder, both under `dir`; nothing of the user's. */
export interface ClaudeWorld {
  home: string;
  config: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The environment Claude Code runs in, offline: the scripted API on 127.0.0.1, a dummy key,
 * no updater, telemetry or other traffic, a private HOME, config and temp folder.
 */
export function claudeWorld(dir: string, apiUrl: string): ClaudeWorld {
  const home = join(dir, 'home');
  const config = join(home, '.claude');
  const project = join(dir, 'project');
  for (const folder of [config, project, join(dir, 'tmp'), join(project, '.tally')])
    mkdirSync(folder, { recursive: true });
  // One record store with one record unrelated to the tasks: the gate holds only where there is
  // something to consult, and the scout has to say NOT FOUND honestly rather than find nothing.
  mkdirSync(join(project, 'references', 'decisions'), { recursive: true });
  writeFileSync(
    join(project, 'references', 'decisions', 'use-postgres.md'),
    '---\nid: DEC-postgres\nkind: decision\ndate: 2026-10-01\ntitle: Orders live in PostgreSQL\nkeywords: [database, orders]\n---\nOrders are stored in PostgreSQL 15; run migrations with `psql -f migrate.sql`.\n',
  );
  return {
    home,
    config,
    project,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      CLAUDE_CONFIG_DIR: config,
      XDG_STATE_HOME: join(dir, 'state'),
      TMPDIR: join(dir, 'tmp'),
      ANTHROPIC_BASE_URL: apiUrl,
      ANTHROPIC_API_KEY: 'dummy',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
  };
}

export interface ClaudeRun {
  code: number | null;
  /** The stream-json lines, parsed. */
  events: Record<string, unknown>[];
  stderr: string;
  session: string;
}

/** `claude -p <prompt> --output-format stream-json --verbose …` in the project, with a hang guard. */
export function runClaude(
  world: ClaudeWorld,
  prompt: string,
  args: string[],
  timeoutMs = 60_000,
): Promise<ClaudeRun> {
  return new Promise((resolve) => {
    const child = spawn(CLAUDE, ['-p', prompt, '--output-format', 'stream-json', '--verbose', ...args], {
      cwd: world.project,
      env: world.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(guard);
      const events = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const init = events.find((event) => event.type === 'system' && event.subtype === 'init');
      resolve({ code, events, stderr, session: String(init?.session_id ?? '') });
    });
  });
}

/** `claude <args>` (plugin management), resolved with its output. */
export function claudeCommand(world: ClaudeWorld, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(CLAUDE, args, { cwd: world.project, env: world.env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

/**
 * A local marketplace holding a COPY of the plugin folder (what `claude plugin install` copies
 * into its cache): nothing in it points back at this repository.
 */
export function localMarketplace(dir: string): string {
  const market = join(dir, 'market');
  mkdirSync(join(market, '.claude-plugin'), { recursive: true });
  cpSync(PLUGIN, join(market, 'tally'), { recursive: true, dereference: true });
  writeFileSync(
    join(market, '.claude-plugin', 'marketplace.json'),
    JSON.stringify({
      name: 'tally-local',
      owner: { name: 'Tally tests' },
      plugins: [{ name: 'tally', source: './tally', description: 'Tally gates' }],
    }),
  );
  return market;
}

type Block = { type?: string; text?: string; content?: unknown; is_error?: boolean };

/** Every text of a message: text blocks, and tool results' text, in order. */
export function messageTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return (content as Block[]).flatMap((block) => {
    if (block?.type === 'text' && typeof block.text === 'string') return [block.text];
    if (block?.type === 'tool_result') return messageTexts(block.content);
    return [];
  });
}

/** The texts of the request's last user message (the newest tool results or prompt). */
export function lastUserTexts(request: MessagesRequest): string {
  return messageTexts(request.messages.filter((message) => message.role === 'user').at(-1)?.content).join(
    '\n',
  );
}

/** All user-side texts of the request, oldest first. */
export function userTexts(request: MessagesRequest): string {
  return request.messages
    .filter((message) => message.role === 'user')
    .flatMap((message) => messageTexts(message.content))
    .join('\n');
}

/** Whether the assistant already spoke in this conversation. */
export const answered = (request: MessagesRequest) =>
  request.messages.some((message) => message.role === 'assistant');

/** The tool results Claude Code streamed back (main conversation and sub-agents). */
export function toolResults(run: ClaudeRun): { id: string; text: string; isError: boolean }[] {
  return run.events
    .filter((event) => event.type === 'user')
    .flatMap((event) => ((event.message as { content?: unknown })?.content as Block[] | undefined) ?? [])
    .filter((block) => block?.type === 'tool_result')
    .map((block) => ({
      id: String((block as { tool_use_id?: unknown }).tool_use_id),
      text: messageTexts(block.content).join('\n') || String(block.content ?? ''),
      isError: block.is_error === true,
    }));
}
