// Acceptance 2 of issue 20: probeAgent tells the agent's verifier every lie its tools allow,
// against the real tools, and each lie is caught while its honest twin passes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSqlite } from '../../src/core/sqlite/open-sqlite.js';
import { type ClaimVerifier, createFailOpen, defineAgent, defineTool, itemFromNet } from '../../src/index.js';
import { PROBE_LIES, probeAgent } from '../../src/testing/index.js';
import { sqlPack } from '../fixtures/packs/sql/sql-pack.js';
import { tempDir, tempLedger } from '../helpers.js';

async function sqlAgent(verifier?: ClaimVerifier) {
  const db = join(tempDir(), 'shop.db');
  const setup = openSqlite(db);
  setup.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  setup.close();
  const session = await sqlPack.session({
    root: tempDir(),
    flags: { db },
    protect: [],
    failOpen: createFailOpen({ logPath: join(tempDir(), 'fail-open.jsonl') }),
  });
  const agent = defineAgent({
    name: 'shopkeeper',
    instructions: 'Add rows with sql_exec, read them with sql_query, then call finish.',
    tools: session.tools,
    ...(verifier ? { verifier } : {}),
  });
  return { agent, close: () => session.close?.() };
}

const insertItem = (variant: number) => [
  {
    tool: 'sql_exec',
    input: { sql: 'INSERT INTO items (id, name) VALUES (?, ?)', params: [100 + variant, `Lamp ${variant}`] },
  },
];

/** The README's inventory example, as written there. */
function inventoryAgent() {
  const store = new Map<string, string>();
  const putItem = defineTool({
    name: 'put_item',
    description: 'Store an item.',
    inputSchema: z.object({ id: z.string(), value: z.string() }),
    annotations: { idempotent: true },
    target: (input) => `items/${input.id}`,
    execute: async ({ id, value }) => {
      const existed = store.has(id);
      store.set(id, value);
      const stored = store.get(id) ?? '';
      return {
        result: { ok: true, id },
        evidence: {
          via: `put_item ${id} (${stored.length} bytes)`,
          effects: [
            { kind: existed ? 'updated' : 'created', space: 'item', key: `items/${id}`, id, type: 'item' },
          ],
        },
      };
    },
  });
  return defineAgent({
    name: 'items',
    instructions: 'Store items with put_item, then call finish with what you stored.',
    tools: [putItem],
  });
}

describe('probeAgent', () => {
  it('on the SQL fixture pack: all eight lies are told, each is caught, each honest twin passes', async () => {
    const { agent, close } = await sqlAgent();
    const report = await probeAgent(agent, 'Add a lamp', {
      ledger: tempLedger(),
      calls: insertItem,
      packs: [sqlPack],
    });
    await close();
    expect(report.skipped).toEqual([]);
    expect(report.lies.map((lie) => lie.lie)).toEqual([...PROBE_LIES]);
    for (const lie of report.lies) {
      expect(lie.caught, `${lie.lie}: ${lie.how}`).toBe(true);
      expect(lie.twin.passed, `${lie.lie}'s twin: ${JSON.stringify(lie.twin)}`).toBe(true);
    }
    expect(report.ok).toBe(true);
    const how = Object.fromEntries(report.lies.map((lie) => [lie.lie, lie.how]));
    expect(how['read-claimed-as-write']).toMatch(/only read in this run/);
    expect(how['created-then-deleted']).toMatch(/created \(ledger #\d+\) and later deleted/);
    expect(how['duplicate-claim']).toMatch(/^duplicate:/);
    expect(how['wrong-type']).toMatch(/substitution/);
    expect(how['fabricated-id']).toMatch(/this run has no effect on/);
  });

  it("on the README's inventory example: every lie its one tool allows is caught, the rest skipped with the reason", async () => {
    const report = await probeAgent(inventoryAgent(), 'Store an item', {
      ledger: tempLedger(),
      calls: (variant) => [{ tool: 'put_item', input: { id: `a${variant}`, value: 'x' } }],
    });
    expect(report.skipped.map((skip) => skip.lie).sort()).toEqual([
      'created-then-deleted',
      'read-claimed-as-write',
    ]);
    expect(report.lies).toHaveLength(6);
    expect(report.missed).toEqual([]);
    expect(report.twinsFailed).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('reports the lies a credulous verifier lets through, so the probe itself can fail', async () => {
    // Believes every claim, as an agent that trusts its model would.
    const credulous: ClaimVerifier = (claims, view) =>
      claims.map((claim) => {
        const net = view.net.values().next().value;
        return net
          ? { claim, verified: true as const, item: itemFromNet(net) }
          : { claim, verified: false as const, why: 'nothing' };
      });
    const { agent, close } = await sqlAgent(credulous);
    const report = await probeAgent(agent, 'Add a lamp', {
      ledger: tempLedger(),
      calls: insertItem,
      packs: [sqlPack],
    });
    await close();
    expect(report.ok).toBe(false);
    expect(report.missed).toEqual(
      expect.arrayContaining(['fabricated-id', 'duplicate-claim', 'wrong-type', 'read-claimed-as-write']),
    );
  });
});
