import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { tempDir } from '../helpers.js';

const REPO = join(import.meta.dirname, '..', '..');
const PLUGIN = join(REPO, 'plugin');
const FIXTURES = join(REPO, 'test', 'fixtures', 'hooks');

// Schemas written from Claude Code's plugin documentation (manifest reference, hooks reference,
// skills): the manifest's userConfig options and the hook entries are strict there.
const userConfigOption = z
  .object({
    type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
    title: z.string(),
    description: z.string(),
    required: z.boolean().optional(),
    default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
    multiple: z.boolean().optional(),
    sensitive: z.boolean().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .strict();

const manifest = z.object({
  name: z
    .string()
    .min(1)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'kebab-case, no spaces'),
  version: z
    .string()
    .regex(/^\d+\.\d+\.\d+(-[\w.]+)?$/)
    .optional(),
  description: z.string().optional(),
  author: z
    .object({ name: z.string().min(1), email: z.string().optional(), url: z.string().optional() })
    .optional(),
  homepage: z.string().url().optional(),
  repository: z.string().optional(),
  license: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  userConfig: z.record(z.string().regex(/^[A-Za-z_]\w*$/), userConfigOption).optional(),
});

const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'Notification',
  'PreCompact',
] as const;

const hooksFile = z.object({
  description: z.string().optional(),
  hooks: z.partialRecord(
    z.enum(HOOK_EVENTS),
    z.array(
      z.object({
        matcher: z.string().optional(),
        hooks: z
          .array(
            z
              .object({
                type: z.literal('command'),
                command: z.string().min(1),
                timeout: z.number().positive().optional(),
              })
              .strict(),
          )
          .min(1),
      }),
    ),
  ),
});

const skillFrontmatter = z.object({
  name: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    .max(64),
  description: z.string().min(1).max(1024),
  'argument-hint': z.string().optional(),
  'allowed-tools': z.union([z.string(), z.array(z.string())]).optional(),
  context: z.enum(['fork']).optional(),
});

const agentFrontmatter = z.object({
  name: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  description: z.string().min(1),
  tools: z.string().optional(),
  model: z.string().optional(),
});

function frontmatter(path: string): unknown {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(path, 'utf8'));
  if (!match) throw new Error(`${path} has no frontmatter`);
  return parseYaml(match[1] as string);
}

const EVENT_FIXTURE: Record<string, string> = {
  UserPromptSubmit: 'user-prompt-submit.json',
  PreToolUse: 'pre-tool-use-write.json',
  PostToolUse: 'post-tool-use-skill-how-do-i.json',
  Stop: 'stop.json',
};

describe('the Claude Code plugin folder', () => {
  it('the manifest matches the documented schema, with per-gate off switches as user options', () => {
    const parsed = manifest.parse(
      JSON.parse(readFileSync(join(PLUGIN, '.claude-plugin', 'plugin.json'), 'utf8')),
    );
    expect(parsed.name).toBe('tally');
    expect(Object.keys(parsed.userConfig ?? {})).toEqual(
      expect.arrayContaining(['gate_how_do_i', 'gate_am_i_done', 'records_root']),
    );
    // Only the manifest lives in .claude-plugin/; components sit at the plugin root.
    expect(readdirSync(join(PLUGIN, '.claude-plugin'))).toEqual(['plugin.json']);
  });

  it('hooks.json wires every turn gate and digest-record to its event, through a launcher that exists', () => {
    const parsed = hooksFile.parse(JSON.parse(readFileSync(join(PLUGIN, 'hooks', 'hooks.json'), 'utf8')));
    const wired = Object.entries(parsed.hooks).flatMap(([event, groups]) =>
      (groups ?? []).flatMap((group) =>
        group.hooks.map((hook) => [event, group.matcher ?? '', hook.command] as const),
      ),
    );
    const names = wired.map(
      ([event, matcher, command]) => `${event} ${matcher} ${command.split(' ').at(-1)}`,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'UserPromptSubmit  turn-reset',
        'PreToolUse * gate-how-do-i',
        'PostToolUse Skill turn-record',
        'PostToolUse Skill digest-record',
        'Stop  gate-am-i-done',
      ]),
    );
    for (const [, , command] of wired) {
      expect(command).toMatch(/^node "\$\{CLAUDE_PLUGIN_ROOT\}\/bin\/tally-hook\.js" [a-z-]+$/);
      expect(existsSync(join(PLUGIN, 'bin', 'tally-hook.js'))).toBe(true);
    }
  });

  it('skills and the agent have valid frontmatter whose names match their folders', () => {
    for (const skill of readdirSync(join(PLUGIN, 'skills'))) {
      const parsed = skillFrontmatter.parse(frontmatter(join(PLUGIN, 'skills', skill, 'SKILL.md')));
      expect(parsed.name).toBe(skill);
    }
    expect(readdirSync(join(PLUGIN, 'skills')).sort()).toEqual(['am-i-done', 'how-do-i']);
    // The plugin's own launcher, never `npx tally` (an unrelated public package outside a Tally
    // project); unset options are single-quoted, so a placeholder left as is reaches the CLI
    // as text (which treats it as unset), never as a shell expansion.
    const howDoI = readFileSync(join(PLUGIN, 'skills', 'how-do-i', 'SKILL.md'), 'utf8');
    expect(howDoI).toContain(
      `node "\${CLAUDE_PLUGIN_ROOT}/bin/tally.js" scout "$ARGUMENTS" --session "\${CLAUDE_SESSION_ID}" --model '\${user_config.scout_model}'`,
    );
    for (const file of [join('skills', 'how-do-i', 'SKILL.md'), join('agents', 'scout.md')])
      expect(readFileSync(join(PLUGIN, file), 'utf8')).not.toMatch(/^npx tally/m);
    for (const agent of readdirSync(join(PLUGIN, 'agents'))) {
      const parsed = agentFrontmatter.parse(frontmatter(join(PLUGIN, 'agents', agent)));
      expect(`${parsed.name}.md`).toBe(agent);
    }
  });

  it('ships in the package', () => {
    const files = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).files as string[];
    expect(files).toContain('plugin');
  });

  it('every wired command, run as Claude Code runs it and fed its event’s recorded payload, exits 0', async () => {
    const parsed = hooksFile.parse(JSON.parse(readFileSync(join(PLUGIN, 'hooks', 'hooks.json'), 'utf8')));
    const dir = tempDir();
    const fill = (text: string) => text.replaceAll('{{CWD}}', dir).replaceAll('{{DIR}}', dir);
    for (const [event, groups] of Object.entries(parsed.hooks)) {
      for (const hook of (groups ?? []).flatMap((group) => group.hooks)) {
        const payload = fill(readFileSync(join(FIXTURES, EVENT_FIXTURE[event] as string), 'utf8'));
        const command = hook.command.replace('${CLAUDE_PLUGIN_ROOT}', PLUGIN);
        const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
          const child = execFile(
            '/bin/sh',
            ['-c', command],
            {
              env: {
                PATH: process.env.PATH,
                HOME: dir,
                XDG_STATE_HOME: join(dir, 'state'),
                CLAUDE_PLUGIN_ROOT: PLUGIN,
              },
              cwd: dir,
            },
            (error, stdout) =>
              resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout }),
          );
          child.stdin?.end(payload);
        });
        expect(result.code, command).toBe(0);
        if (result.stdout.trim()) expect(() => JSON.parse(result.stdout)).not.toThrow();
      }
    }
  });
});
