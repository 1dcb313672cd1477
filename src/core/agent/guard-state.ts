import type { ToolCallRecord } from '../invoke-tool.js';
import type { GuardSettings } from './guard-settings.js';

export type GuardName =
  | 'repeated_failure'
  | 'loop'
  | 'silence'
  | 'conversational_first_turn'
  | 'finish_required';

export interface GuardFiring {
  guard: GuardName;
  action: 'nudge' | 'end' | 'no_tools';
  detail: string;
  /** The message that made it fire, cut short, so misfires can be reviewed. */
  preview?: string;
}

function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const keys = Object.keys(value as Record<string, unknown>).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${stableStringify((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

/** The guard bookkeeping of one run; pure state, no I/O. */
export class GuardState {
  private readonly failuresByTarget = new Map<string, number>();
  private readonly recentCalls: string[] = [];
  private readonly warnedLoops = new Set<string>();
  private silentRounds = 0;
  private silentCalls = 0;
  private silenceNudged = false;

  constructor(private readonly settings: GuardSettings) {}

  observeCall(record: ToolCallRecord): GuardFiring | undefined {
    const targetKey = `${record.tool} ${record.target}`;
    if (record.outcome === 'ok') {
      this.failuresByTarget.delete(targetKey);
    } else {
      const failures = (this.failuresByTarget.get(targetKey) ?? 0) + 1;
      this.failuresByTarget.set(targetKey, failures);
      if (failures >= this.settings.repeatedFailures) {
        return {
          guard: 'repeated_failure',
          action: 'end',
          detail: `${failures} consecutive failures against ${targetKey}`,
        };
      }
    }
    // The resources a call touched are part of what repeats: the same create making a new
    // resource each time (three identical orders) is progress, not a loop; the same write or
    // read of the same resource, or the same failure, is.
    const touched = [
      ...new Set((record.evidence?.effects ?? []).map((effect) => `${effect.space}:${effect.key}`)),
    ]
      .sort()
      .join(' ');
    const callKey = `${record.tool} ${stableStringify(record.input)} ${touched}`;
    this.recentCalls.push(callKey);
    if (this.recentCalls.length > this.settings.loop.window) this.recentCalls.shift();
    const repeats = this.recentCalls.filter((key) => key === callKey).length;
    if (repeats >= this.settings.loop.repeats) {
      if (this.warnedLoops.has(callKey)) {
        return {
          guard: 'loop',
          action: 'end',
          detail: `${record.tool} called again with the same arguments after a warning`,
        };
      }
      this.warnedLoops.add(callKey);
      return {
        guard: 'loop',
        action: 'nudge',
        detail: `${record.tool} called ${repeats} times with the same arguments`,
      };
    }
    return undefined;
  }

  /** After each model step: did the model say anything to the user? */
  observeStep(hadText: boolean, toolCalls: number): GuardFiring | undefined {
    if (hadText) {
      this.silentRounds = 0;
      this.silentCalls = 0;
      this.silenceNudged = false;
      return undefined;
    }
    this.silentRounds += 1;
    this.silentCalls += toolCalls;
    const silence = this.settings.silence;
    if (!silence || this.silenceNudged) return undefined;
    if (this.silentRounds >= silence.rounds || this.silentCalls >= silence.toolCalls) {
      this.silenceNudged = true;
      return {
        guard: 'silence',
        action: 'nudge',
        detail: `${this.silentRounds} rounds and ${this.silentCalls} tool calls without text for the user`,
      };
    }
    return undefined;
  }
}

export const NUDGES: Record<'silence' | 'loop' | 'finish_required', string> = {
  silence: 'Status check: say in one sentence what you are doing and what is left, then continue.',
  loop: 'You have made the same call with the same arguments several times. It will not give a different answer: change approach, or call stop with the reason.',
  finish_required:
    'You ended your turn without calling finish or stop. Call finish with what you did (it is checked against the evidence), or stop with the reason you cannot.',
};
