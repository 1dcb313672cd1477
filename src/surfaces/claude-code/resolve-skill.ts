import { join } from 'node:path';
import { statIfAny, unusablePath } from '../../core/io/private-dir.js';

/** The plugin's name in `.claude-plugin/plugin.json`: Claude Code namespaces its skills with it. */
export const PLUGIN_NAME = 'tally';

export type ResolvedSkill = { invokeAs: string; path: string } | { unresolvable: string };

/**
 * Where a gate's skill is installed, and the name that invokes it — the name a deny must
 * give. Looked up where Claude Code loads skills from: this plugin (CLAUDE_PLUGIN_ROOT, invoked
 * as `tally:<name>`), the project's `.claude/skills`, the user's `~/.claude/skills`.
 */
export function resolveSkill(name: string, env: NodeJS.ProcessEnv, projectDir: unknown): ResolvedSkill {
  const places: { dir: unknown; invokeAs: string }[] = [
    {
      dir: env.CLAUDE_PLUGIN_ROOT ? join(env.CLAUDE_PLUGIN_ROOT, 'skills') : undefined,
      invokeAs: `${PLUGIN_NAME}:${name}`,
    },
    { dir: env.CLAUDE_PROJECT_DIR ?? projectDir, invokeAs: name },
    { dir: env.HOME, invokeAs: name },
  ];
  const looked: string[] = [];
  for (const [index, place] of places.entries()) {
    if (unusablePath(place.dir)) continue;
    const path =
      index === 0
        ? join(place.dir as string, name, 'SKILL.md')
        : join(place.dir as string, '.claude', 'skills', name, 'SKILL.md');
    looked.push(path);
    if (statIfAny(path)?.isFile()) return { invokeAs: place.invokeAs, path };
  }
  return {
    unresolvable: `the ${name} skill is not installed (looked in ${looked.join(', ') || 'no usable folder'}). Install the Tally plugin or put ${name}/SKILL.md under .claude/skills.`,
  };
}
