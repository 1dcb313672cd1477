import { TallyError } from '../../core/errors.js';
import { CORE_STATS_KEYS } from '../../core/ledger/compute-stats.js';
import type { AnyStatsContributor } from '../../core/ledger/stats-contributor.js';
import { statsContributorsOf } from '../agent-surface.js';
import { BUILT_IN_AGENT_SURFACES } from './agent-surface-commands.js';

/** The built-in agents' shares of `tally stats`, as their surfaces declare them (the Coder's chat turns). */
export async function builtInStatsContributors(): Promise<AnyStatsContributor[]> {
  const contributors: AnyStatsContributor[] = [];
  for (const surface of BUILT_IN_AGENT_SURFACES) contributors.push(...(await statsContributorsOf(surface)));
  return contributors;
}

/**
 * What `tally stats` asks for beyond core's counts: the built-in contributors, then those of the
 * packs in `--pack-module` files and of the agent surfaces in `--surface-module` files. Two
 * contributors of one name, or one named like a figure of core's, would overwrite each other's
 * figures, so that is refused.
 */
export async function statsContributorsFor(
  modules: readonly string[],
  surfaceModules: readonly string[] = [],
): Promise<AnyStatsContributor[]> {
  const contributors = await builtInStatsContributors();
  if (surfaceModules.length > 0) {
    const { loadSurfaceModules } = await import('./agent-surface-commands.js');
    for (const surface of await loadSurfaceModules(surfaceModules))
      contributors.push(...(await statsContributorsOf(surface)));
  }
  if (modules.length === 0) return checkedNames(contributors);
  // Loaded only when asked: a pack module may bring the agent runtime with it.
  const { asTallyError, loadPackModule } = await import('./pack-modules.js');
  try {
    for (const path of modules)
      for (const pack of await loadPackModule(path)) contributors.push(...(pack.statsContributors ?? []));
  } catch (error) {
    throw asTallyError(error);
  }
  return checkedNames(contributors);
}

function checkedNames(contributors: AnyStatsContributor[]): AnyStatsContributor[] {
  const names = contributors.map((contributor) => contributor.name);
  const core = names.find((name) => CORE_STATS_KEYS.includes(name));
  if (core !== undefined)
    throw new TallyError(
      'STATS_CONTRIBUTOR_TAKEN',
      `A stats contributor is named "${core}", which is one of core's figures in tally stats --json: rename it after what it counts.`,
    );
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined)
    throw new TallyError(
      'STATS_CONTRIBUTOR_TAKEN',
      `Two stats contributors are named "${twice}": each one's figures go under its own name in tally stats --json, so rename one.`,
    );
  return contributors;
}
