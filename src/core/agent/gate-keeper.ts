import type { FailOpen } from '../fail-open.js';
import type { RunRecorder } from '../ledger/ledger.js';
import { FINISH_TOOL } from './finish-spec.js';

/**
 * Declarative gates. `requires`: tools in `tools` may not run in a turn until `requires`
 * succeeded in that turn. `check_before_finish`: before finishing, run `check` — asked at
 * most once per turn.
 */
export type GateRule =
  | { name: string; kind: 'requires'; tools: string[]; requires: string }
  | { name: string; kind: 'check_before_finish'; check: string };

export interface GateDecision {
  allowed: boolean;
  message?: string;
}

export class GateKeeper {
  private readonly succeeded = new Set<string>();
  private readonly asked = new Set<string>();
  private readonly released = new Set<string>();

  constructor(
    private readonly rules: GateRule[],
    private readonly registered: Set<string>,
    private readonly recorder: RunRecorder,
    private readonly failOpen: FailOpen,
  ) {}

  noteSuccess(tool: string): void {
    this.succeeded.add(tool);
  }

  private release(rule: GateRule, tool: string, satisfiedBy: string): void {
    // A gate whose satisfying tool is missing must not wedge the agent: release, loudly.
    if (!this.released.has(rule.name)) {
      this.released.add(rule.name);
      this.failOpen('gate', 'gate-tool-unregistered', this.recorder.runId);
    }
    this.recorder.append({
      kind: 'gate',
      name: rule.name,
      outcome: 'released',
      data: { gate: rule.name, tool, satisfiedBy },
    });
  }

  check(tool: string): GateDecision {
    for (const rule of this.rules) {
      if (rule.kind === 'requires') {
        if (!rule.tools.includes(tool) || this.succeeded.has(rule.requires)) continue;
        if (!this.registered.has(rule.requires)) {
          this.release(rule, tool, rule.requires);
          continue;
        }
        const message = `Gate "${rule.name}": ${tool} may not run yet in this turn. Call ${rule.requires} first and make sure it succeeds.`;
        this.recorder.append({
          kind: 'gate',
          name: rule.name,
          outcome: 'denied',
          data: { gate: rule.name, tool, satisfiedBy: rule.requires },
        });
        return { allowed: false, message };
      }
      if (tool !== FINISH_TOOL || this.succeeded.has(rule.check) || this.asked.has(rule.name)) continue;
      if (!this.registered.has(rule.check)) {
        this.release(rule, tool, rule.check);
        continue;
      }
      this.asked.add(rule.name);
      const message = `Gate "${rule.name}": before finishing, run ${rule.check} (asked once per turn), then call finish again.`;
      this.recorder.append({
        kind: 'gate',
        name: rule.name,
        outcome: 'denied',
        data: { gate: rule.name, tool, satisfiedBy: rule.check },
      });
      return { allowed: false, message };
    }
    return { allowed: true };
  }
}
