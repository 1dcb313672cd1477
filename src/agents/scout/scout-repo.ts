import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ScoutRepo {
  repo?: string;
  /** Where it came from: `goal`, `session digest`, `working directory`. */
  from?: string;
}

/** The repository a goal is about: the goal text, else context held this session (digests), else the cwd's origin. */
export function resolveScoutRepo(goal: string, digests: string[], cwd: string | undefined): ScoutRepo {
  const inGoal = /\b([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)\b/.exec(goal.replace(/\S+\.md\b/g, ''))?.[1];
  if (inGoal) return { repo: inGoal, from: 'goal' };
  for (const digest of digests) {
    const line = /^REPO: (\S+)/m.exec(digest)?.[1];
    if (line && line !== '(none)') return { repo: line, from: 'session digest' };
  }
  const gitConfig = cwd ? join(cwd, '.git', 'config') : undefined;
  if (gitConfig && existsSync(gitConfig)) {
    const url = /\[remote "origin"\][^[]*?url\s*=\s*(\S+)/.exec(readFileSync(gitConfig, 'utf8'))?.[1];
    const repo = url ? /[:/]([^/:]+\/[^/]+?)(\.git)?$/.exec(url)?.[1] : undefined;
    if (repo) return { repo, from: 'working directory' };
  }
  return {};
}
