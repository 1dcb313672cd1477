import { AgentConfigError } from '../errors.js';

export interface GuardSettings {
  /** Maximum model steps in one run. */
  maxRounds: number;
  /** Consecutive failures against one target that end the run. */
  repeatedFailures: number;
  /** Same tool + same arguments `repeats` times within the last `window` calls. */
  loop: { repeats: number; window: number };
  /** Nudge after this many rounds or tool calls without text; false turns it off. */
  silence: { rounds: number; toolCalls: number } | false;
}

export const DEFAULT_GUARDS: GuardSettings = {
  maxRounds: 20,
  repeatedFailures: 4,
  loop: { repeats: 3, window: 8 },
  silence: { rounds: 3, toolCalls: 6 },
};

function positiveInteger(agent: string, name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new AgentConfigError(
      agent,
      `guard setting ${name} is ${value}`,
      `Set ${name} to a whole number of at least 1.`,
    );
  }
}

export function resolveGuardSettings(agent: string, overrides: Partial<GuardSettings> = {}): GuardSettings {
  const settings: GuardSettings = { ...DEFAULT_GUARDS, ...overrides };
  positiveInteger(agent, 'maxRounds', settings.maxRounds);
  positiveInteger(agent, 'repeatedFailures', settings.repeatedFailures);
  positiveInteger(agent, 'loop.repeats', settings.loop.repeats);
  positiveInteger(agent, 'loop.window', settings.loop.window);
  if (settings.loop.window < settings.loop.repeats) {
    throw new AgentConfigError(
      agent,
      `loop.window ${settings.loop.window} is smaller than loop.repeats ${settings.loop.repeats}`,
      'Make the window at least as large as the repeat count.',
    );
  }
  if (settings.silence) {
    positiveInteger(agent, 'silence.rounds', settings.silence.rounds);
    positiveInteger(agent, 'silence.toolCalls', settings.silence.toolCalls);
    // The nudge is injected before round R+1, so it needs a round cap above R.
    if (settings.silence.rounds >= settings.maxRounds) {
      throw new AgentConfigError(
        agent,
        `the silence nudge (after ${settings.silence.rounds} silent rounds) can never fire before the round cap of ${settings.maxRounds}`,
        `Raise maxRounds above ${settings.silence.rounds}, lower silence.rounds, or set silence: false to turn the nudge off deliberately.`,
        { maxRounds: settings.maxRounds, silenceRounds: settings.silence.rounds },
      );
    }
  }
  return settings;
}
