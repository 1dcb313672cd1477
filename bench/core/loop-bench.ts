import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/core/agent/agent-definition.js';
import { runAgent } from '../../src/core/agent/run-agent.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { defineTool } from '../../src/core/tool.js';
import { callTool, say, scriptedModel } from '../../src/testing/scripted-model.js';
import { type BenchRow, medianMs } from '../measure.js';

const STEPS = 40;
const RUNS = 80;
const inputSchema = z.object({ id: z.string(), value: z.string() });

function script() {
  return [
    ...Array.from({ length: STEPS - 1 }, (_, index) =>
      callTool('put', { id: `k${index}`, value: 'v' }, `Storing k${index}.`),
    ),
    say('Done.'),
  ];
}

async function store(map: Map<string, string>, id: string, value: string) {
  map.set(id, value);
  return { ok: true, id };
}

/** The same scripted model and tool, through a bare AI SDK loop and through runAgent. */
export async function loopBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tally-bench-loop-'));
  const ledger = Ledger.open(join(dir, 'ledger.db'));
  try {
    const bare = async () => {
      const map = new Map<string, string>();
      await generateText({
        model: scriptedModel(script()),
        prompt: 'Store many values',
        tools: {
          put: tool({
            description: 'Store a value.',
            inputSchema,
            execute: ({ id, value }) => store(map, id, value),
          }),
        },
        stopWhen: stepCountIs(STEPS),
      });
    };
    // An agent is defined once and run many times, as in a service; each run gets a fresh store.
    let map = new Map<string, string>();
    const put = defineTool({
      name: 'put',
      description: 'Store a value.',
      inputSchema,
      annotations: { idempotent: true },
      target: (input) => input.id,
      execute: async ({ id, value }) => ({
        result: await store(map, id, value),
        evidence: { targets: [id] },
      }),
    });
    const agent = defineAgent({
      name: 'bench',
      instructions: 'Store values with put.',
      tools: [put],
      requireFinish: false,
      guards: { maxRounds: STEPS + 1 },
    });
    const harnessed = async () => {
      map = new Map<string, string>();
      const result = await runAgent(agent, 'Store many values', { ledger, model: scriptedModel(script()) });
      // Charge the ledger write to this run, not to whatever is measured next.
      ledger.flush();
      if (result.counts.modelCalls !== STEPS)
        throw new Error(`expected ${STEPS} steps, got ${result.counts.modelCalls}`);
    };
    // Warm both paths, then interleave measurements so machine noise hits both alike.
    for (let index = 0; index < 5; index++) {
      await bare();
      await harnessed();
    }
    const bareSamples: number[] = [];
    const oursSamples: number[] = [];
    for (let index = 0; index < RUNS; index++) {
      bareSamples.push(await medianMs(1, bare));
      oursSamples.push(await medianMs(1, harnessed));
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    const bareStep = median(bareSamples) / STEPS;
    const oursStep = median(oursSamples) / STEPS;
    const overhead = oursStep - bareStep;
    const ratio = oursStep / bareStep;
    return [
      { name: `bare AI SDK loop, ms per step (${STEPS} steps × ${RUNS} runs)`, value: bareStep.toFixed(3) },
      {
        name: 'runAgent, ms per step (ledger on disk, guards, gates)',
        value: oursStep.toFixed(3),
        baseline: `${bareStep.toFixed(3)} bare`,
        ratio: ratio.toFixed(2),
        target: '≤ 1.10',
        pass: ratio <= 1.1,
      },
      {
        name: 'loop overhead per step, ms',
        value: overhead.toFixed(3),
        target: '≤ 1 ms',
        pass: overhead <= 1,
      },
    ];
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
