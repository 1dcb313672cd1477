import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { isAgentPack } from '../../core/agent/agent-tool.js';
import { runAgent } from '../../core/agent/run-agent.js';
import { TallyError } from '../../core/errors.js';
import { createFailOpen } from '../../core/fail-open.js';
import { ledgerStateDir } from '../../core/ledger/resolve-ledger-path.js';
import { createPackRegistry } from '../../core/pack-registry.js';
import { requireRecorded, usingLedger } from '../require-recorded.js';
import { visibleControls } from '../visible-controls.js';
import { EXIT } from './exit-codes.js';
import { withInterrupt } from './interrupt.js';
import { ledgerPathFor, openLedgerAt } from './open-ledger.js';
import { asTallyError, checkRequiredFlags, loadPackModule, packFlags } from './pack-modules.js';

interface AgentFlags {
  agentModule?: string[];
  packOption?: string[];
  root?: string;
  model?: string;
  json?: boolean;
}

/**
 * `tally agent NAME TASK --agent-module ./my-agent.js`: runs an agent a module exports (a
 * `defineAgent` value or an `agentPack`) once, in the ledger, and prints its verified result —
 * the CLI reaches a new agent without a command of its own.
 */
export default async function agentCommand(
  name: string,
  task: string,
  options: AgentFlags,
  command: Command,
): Promise<number> {
  try {
    const registry = createPackRegistry();
    for (const path of options.agentModule ?? [])
      for (const pack of await loadPackModule(path)) registry.register(pack);
    const agents = registry.names().filter((candidate) => isAgentPack(registry.get(candidate)));
    const pack = registry.has(name) ? registry.get(name) : undefined;
    if (!pack || !isAgentPack(pack))
      throw new TallyError(
        'AGENT_UNKNOWN',
        `No agent "${name}" in ${(options.agentModule ?? []).join(', ') || '(no --agent-module given)'}. Agents there: ${agents.join(', ') || '(none)'}.`,
      );
    const flags = packFlags(options.packOption ?? [], registry);
    checkRequiredFlags([name], registry, flags);
    const root = resolve(options.root ?? '.');
    const ledgerPath = ledgerPathFor(command, root);
    const agent = await pack.agent({
      root,
      flags: flags.get(name) ?? {},
      protect: [ledgerPath],
      failOpen: createFailOpen({ logPath: join(ledgerStateDir(ledgerPath, root), 'fail-open.jsonl') }),
    });
    const ledger = await openLedgerAt(ledgerPath);
    // Like every command that runs an agent: SIGINT/SIGTERM/SIGHUP abort the run, which ends
    // `aborted` with its end entry, and the command exits 130.
    return await usingLedger(ledger, () =>
      withInterrupt(async (interrupt) => {
        const result = await runAgent(agent, task, {
          ledger,
          signal: interrupt.signal,
          ...(options.model ? { model: options.model } : {}),
        });
        // The ledger has the run, or its outcome is not presented (the ledger is the truth).
        await requireRecorded(ledger, [result.runId]);
        if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else {
          const lines = [
            `${result.status}: ${result.summary}`,
            ...result.verified.map(
              (item) => `  ✓ ${item.effect ?? ''} ${item.resource ?? item.target} — ${item.via}`,
            ),
            ...result.dropped.map((drop) => `  ✗ ${String(drop.claim.target)}: ${drop.why}`),
            ...result.unmet.map((why) => `  unmet: ${why}`),
            `run ${result.runId} (tally runs show ${result.runId})`,
          ];
          // Summaries, targets and reasons come from the model and the tools: shown, never obeyed.
          process.stdout.write(`${visibleControls(lines.join('\n'))}\n`);
        }
        return result.status === 'success' ? EXIT.ok : EXIT.notMet;
      }),
    );
  } catch (error) {
    throw asTallyError(error);
  }
}
