import type { NetEffect, NetEffects } from './effects.js';
import { errorMessage } from './errors.js';

/** What today's state says about one resource a past run left behind. */
export type LiveState = 'unchanged' | 'drifted' | 'unchecked';

export interface LiveCheck {
  space: string;
  key: string;
  type?: string;
  /** What the run did to it (`created`, `updated`, `deleted`, or `read`). */
  effect: string;
  state: LiveState;
  /** Why, in words: `GET … → 404: gone`, `sha256 now 3fa9…, the run left 91bc…`. */
  what: string;
}

/**
 * A pack's "re-check this effect" function: looks at the resource as it stands now and says
 * whether it is still what the run's evidence observed. The core knows no HTTP, files or records.
 */
export interface EffectRechecker {
  space: string;
  /** Whether resources the run only read are re-checked too (records: the run's answer rests on them). */
  reads?: boolean;
  recheck(net: NetEffect): Promise<Omit<LiveCheck, 'space' | 'key' | 'type' | 'effect'>>;
}

/** Every resource the run changed (and, where a pack asks, read), re-checked by its space's pack. */
export async function recheckEffects(
  net: NetEffects,
  checkers: readonly EffectRechecker[],
): Promise<LiveCheck[]> {
  const checks: LiveCheck[] = [];
  for (const effect of net.values()) {
    const checker = checkers.find((candidate) => candidate.space === effect.space);
    if (effect.change === undefined && !(effect.read && checker?.reads)) continue;
    const base = {
      space: effect.space,
      key: effect.key,
      ...(effect.type ? { type: effect.type } : {}),
      effect: effect.change ?? 'read',
    };
    if (!checker) {
      checks.push({
        ...base,
        state: 'unchecked',
        what: `nothing here can re-check a ${effect.space} resource`,
      });
      continue;
    }
    try {
      checks.push({ ...base, ...(await checker.recheck(effect)) });
    } catch (error) {
      // A check that cannot run says so: it is never reported unchanged.
      checks.push({ ...base, state: 'unchecked', what: `the re-check failed: ${errorMessage(error)}` });
    }
  }
  return checks;
}
