import { type FishContract, totalCount } from '../../../agents/fisherman/fish-contract.js';
import type { RunEvent } from '../../../core/agent/run-observer.js';

/**
 * From this many planned creates on, a run's progress is a counter, not a line per call:
 * 220 lines scroll the run's own start and any failure off the screen.
 */
export const COUNTED_FROM = 30;

/** Where a counted run stands. */
export interface JobCount {
  runId: string;
  agent: string;
  /** Creates the request's contract plans. */
  total: number;
  /** Creates that answered (made), and creates that failed. */
  done: number;
  failed: number;
  /** When the first create was sent (ms), for the rate. */
  startedMs: number;
  nowMs: number;
}

/**
 * The contract's shape as far as counting needs it: entities with a ref, a positive whole count
 * and, where given, a parent object. A progress display only — the contract was checked where it
 * was made — so no schema parse here: a first zod parse of the contract schema costs about 10 ms,
 * a twentieth of a short `tally fish` (issue 22).
 */
function countable(value: unknown): FishContract | undefined {
  const entities = (value as { entities?: unknown } | null | undefined)?.entities;
  if (!Array.isArray(entities) || entities.length === 0) return undefined;
  for (const entity of entities as unknown[]) {
    if (!entity || typeof entity !== 'object') return undefined;
    const { ref, count, parent } = entity as { ref?: unknown; count?: unknown; parent?: unknown };
    if (typeof ref !== 'string' || !Number.isSafeInteger(count) || (count as number) < 1) return undefined;
    if (parent !== undefined && (parent === null || typeof parent !== 'object')) return undefined;
  }
  return value as FishContract;
}

/** Planned creates of a Fisherman contract (`data` of its `contract` entry); undefined for any other. */
export function plannedCreates(data: unknown): number | undefined {
  const contract = countable((data as { data?: unknown } | null | undefined)?.data);
  if (!contract) return undefined;
  return contract.entities.reduce((sum, entity) => sum + totalCount(entity, contract), 0);
}

const createOf = (entry: Extract<RunEvent, { type: 'entry' }>['entry']) => {
  if (entry.kind !== 'tool_call' || entry.data.tool !== 'request') return false;
  return (entry.data.input as { method?: unknown } | undefined)?.method === 'POST';
};

/**
 * Counts the creates of runs whose contract plans at least `from`; `see` answers the run's
 * count when an event moved it (its contract, a create that landed), else undefined.
 */
export function createJobCounter(from = COUNTED_FROM): {
  see(event: RunEvent): JobCount | undefined;
  /** Whether this run's calls are being counted (then a line per call is not wanted). */
  counts(runId: string): boolean;
} {
  const runs = new Map<string, JobCount>();
  return {
    counts: (runId) => runs.has(runId),
    see: (event) => {
      if (event.type !== 'entry') return undefined;
      const { entry } = event;
      if (entry.kind === 'contract') {
        const total = plannedCreates(entry.data);
        if (total === undefined || total < from) return undefined;
        const count = {
          runId: event.runId,
          agent: event.agent,
          total,
          done: 0,
          failed: 0,
          startedMs: event.time,
          nowMs: event.time,
        };
        runs.set(event.runId, count);
        return { ...count };
      }
      const count = runs.get(event.runId);
      if (!count) return undefined;
      if (entry.kind === 'end') {
        runs.delete(event.runId);
        return undefined;
      }
      if (!createOf(entry)) return undefined;
      if (count.done + count.failed === 0) count.startedMs = event.time;
      if (entry.outcome === 'ok') count.done += 1;
      else count.failed += 1;
      count.nowMs = event.time;
      return { ...count };
    },
  };
}

/** `fisherman 120/220 created · 2 failed · 38/s` */
export function formatJobCount(count: JobCount): string {
  const seconds = (count.nowMs - count.startedMs) / 1000;
  const handled = count.done + count.failed;
  const rate =
    seconds > 0 && handled > 1 ? ` · ${(handled / seconds).toFixed(handled / seconds < 10 ? 1 : 0)}/s` : '';
  const failed = count.failed ? ` · ${count.failed} failed` : '';
  return `${count.agent} ${count.done}/${count.total} created${failed}${rate}`;
}

/**
 * Progress where stderr is not a terminal (CI logs, pipes): one compact line per counted run
 * at each tenth of its planned creates, and at most every `everyMs` between them, so a long
 * job shows that it moves without a line per call. Runs below `from` print nothing here.
 */
export function compactCounter(
  stream: NodeJS.WritableStream,
  options: { from?: number; everyMs?: number } = {},
): (event: RunEvent) => void {
  const counter = createJobCounter(options.from);
  const everyMs = options.everyMs ?? 10_000;
  const last = new Map<string, { tenth: number; at: number }>();
  return (event) => {
    const count = counter.see(event);
    if (!count) return;
    const handled = count.done + count.failed;
    const tenth = Math.floor((handled * 10) / count.total);
    const before = last.get(count.runId);
    const due =
      before === undefined ||
      tenth > before.tenth ||
      handled === count.total ||
      (handled > 0 && count.nowMs - before.at >= everyMs);
    if (!due || (before && handled === 0)) return;
    last.set(count.runId, { tenth, at: count.nowMs });
    stream.write(`${formatJobCount(count)}\n`);
  };
}
