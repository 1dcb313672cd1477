import { defineAgent } from '../../core/agent/agent-definition.js';
import type { RunResult } from '../../core/agent/ending.js';
import { runPlan } from '../../core/agent/run-plan.js';
import { createdResources, firstChange, netEffects } from '../../core/effects.js';
import { TallyError } from '../../core/errors.js';
import type { LedgerEntry } from '../../core/ledger/entry.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { singular } from '../../core/type-words.js';
import { canonicalPath, type MarkedItem } from '../../packs/http/client/api-client.js';
import { lookupTool } from '../../packs/http/tools/lookup-tool.js';
import { requestTool } from '../../packs/http/tools/request-tool.js';
import { buildFishContext, type FishContextOptions } from './fish-context.js';

export type DeletionOutcome = 'deleted' | 'already-gone' | 'not-confirmed' | 'failed';

export interface Deletion {
  type: string;
  id: string;
  /** The resource URL path the run created, exactly what is deleted. */
  path: string;
  /**
   * `marker`: not among the run's recorded creates (its response never came, or came after
   * an interrupt) but listed in a collection the run posted to, carrying the run's marker.
   */
  foundBy?: 'marker';
  outcome: DeletionOutcome;
  /** Status of the read before the DELETE, of the DELETE, and of the read after it. */
  beforeStatus?: number;
  status?: number;
  confirmStatus?: number;
  /** True when the resource is gone (deleted now and confirmed, or already gone). */
  ok: boolean;
  why?: string;
}

/** The first read or DELETE the server refused for want of credentials: the cleanup stopped there. */
export interface AuthFailure {
  method: 'GET' | 'DELETE';
  path: string;
  status: 401 | 403;
  message?: string;
}

export interface CleanupResult extends RunResult {
  cleanedRunId: string;
  deletions: Deletion[];
  /**
   * Set when the server answered 401 (or 403 to a DELETE): nothing after that call was sent,
   * since every other call would be refused too.
   */
  authFailed?: AuthFailure;
  /** Collections the run posted to that could not be listed for its marker, with why. */
  unlisted?: { path: string; why: string }[];
}

interface Created {
  type: string;
  id: string;
  path: string;
  /** Where it stands in the run (ledger sequence of its create): deletion goes newest first. */
  order: number;
  foundBy?: 'marker';
}

const GONE = new Set([404, 410]);

/** What a run created and still had at its end (net `created` effects), oldest first. */
export function createdBy(entries: LedgerEntry[]): Created[] {
  return createdResources(netEffects(entries))
    .filter((net) => net.space === 'http')
    .map((net) => ({
      type: net.type ?? 'item',
      id: net.id ?? net.key,
      path: net.key,
      order: firstChange(net),
    }));
}

/** A collection a run posted to: the fields that carried its marker, and when each value was sent. */
interface Posted {
  path: string;
  fields: Set<string>;
  /** Marked value → ledger sequence of the POST that sent it. */
  sent: Map<string, number>;
}

/**
 * Every collection the run POSTed to with its marker in the body — whatever came of the
 * call: made, failed, timed out, or abandoned at an interrupt (its input is in the ledger
 * all the same). In the order of the first POST to each.
 */
export function postedCollections(entries: LedgerEntry[], marker: string): Posted[] {
  const posted = new Map<string, Posted>();
  for (const entry of entries) {
    if (entry.kind !== 'tool_call' || entry.data.tool !== 'request') continue;
    const input = entry.data.input as { method?: unknown; path?: unknown; body?: unknown } | undefined;
    if (input?.method !== 'POST' || typeof input.path !== 'string') continue;
    const body = input.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) continue;
    const marked = Object.entries(body as Record<string, unknown>).filter(
      (field): field is [string, string] => typeof field[1] === 'string' && field[1].includes(marker),
    );
    if (marked.length === 0) continue;
    const path = canonicalPath(input.path);
    const collection = posted.get(path) ?? {
      path,
      fields: new Set<string>(),
      sent: new Map<string, number>(),
    };
    posted.set(path, collection);
    for (const [field, value] of marked) {
      collection.fields.add(field);
      collection.sent.set(value, entry.seq);
    }
  }
  return [...posted.values()];
}

/** The place in the run of the last recorded POST to a collection. */
const lastSent = (collection: Posted) => Math.max(0, ...collection.sent.values());

/** `/api/alpha-shop/tests` → test: the collection's last segment, singular. */
const typeOfCollection = (path: string) =>
  singular(decodeURIComponent(path.split('/').filter(Boolean).at(-1) ?? 'item'));

/**
 * Resource paths an earlier cleanup of the same run deleted AND confirmed: its verified
 * `deleted` claims (a DELETE whose read-back still found the resource is not among them).
 */
async function confirmedEarlier(ledger: Ledger, runId: string): Promise<Set<string>> {
  const confirmed = new Set<string>();
  for (const listing of await ledger.listRuns({ agent: 'fisherman-cleanup' })) {
    const record = await ledger.getRun(listing.id);
    if ((record.run.meta as { cleans?: string }).cleans !== runId) continue;
    for (const entry of record.entries)
      if (entry.kind === 'claim' && entry.outcome === 'verified' && typeof entry.data.resource === 'string')
        confirmed.add(entry.data.resource);
  }
  return confirmed;
}

const statusOf = (record: { result?: unknown }) => (record.result as { status?: number } | undefined)?.status;

const messageOf = (record: { result?: unknown; error?: { message?: string } }) =>
  (record.result as { message?: string } | undefined)?.message ?? record.error?.message;

/**
 * A refusal for want of credentials, after which every further call would be refused the same
 * way: 401 to anything (no or an expired session), 403 to a DELETE (not allowed to act, e.g. no
 * CSRF token). A 403 to a read is not one by itself: apps that hide what they deleted answer it
 * for gone resources, so the DELETE decides.
 */
function refused(
  method: AuthFailure['method'],
  path: string,
  record: { result?: unknown; error?: { message?: string } },
): AuthFailure | undefined {
  const status = statusOf(record);
  if (status !== 401 && !(status === 403 && method === 'DELETE')) return undefined;
  const message = messageOf(record);
  return { method, path, status, ...(message ? { message } : {}) };
}

/** Shown to the user and kept as the run's stop reason; `cleanup` is the command's own word. */
export function authFailureText(failure: AuthFailure): string {
  return `authentication failed: ${failure.method} ${failure.path} answered ${failure.status}${failure.message ? ` (${failure.message})` : ''}`;
}

/** At most this many problems are named in a summary; the table lists every one. */
const NAMED_PROBLEMS = 3;

/** A server's reason can be a whole page; the summary keeps its start. */
const shortened = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text);

/** The first few problems by path and reason, then how many more: a summary stays one short line. */
function namedProblems(notOk: Deletion[]): string {
  const named = notOk
    .slice(0, NAMED_PROBLEMS)
    .map((deletion) => `${deletion.path}: ${shortened(deletion.why ?? deletion.outcome)}`)
    .join('; ');
  return notOk.length > NAMED_PROBLEMS ? `${named}; and ${notOk.length - NAMED_PROBLEMS} more` : named;
}

/**
 * Deletes exactly the resource URLs a run created, children first, through the same
 * origin-locked client and ledger as any request. A deletion is confirmed when the read
 * that found the resource before the DELETE no longer does (404/410, or 403 where the same
 * session got 200 before). Already-gone resources count as cleaned, so cleanup can repeat.
 *
 * Creates whose responses never reached the ledger (in flight at an interrupt, lost) are
 * found by the run's marker: each collection the run posted to is listed, and every item
 * whose marked field carries the marker is deleted too (`foundBy: 'marker'`), before the
 * parents they may hang under.
 */
export async function cleanupRun(
  options: Omit<FishContextOptions, 'created' | 'allowDelete' | 'markedBy'> & {
    runId: string;
    ledger: Ledger;
    /** Aborting it stops the cleanup between calls (an interrupt); the run ends `aborted`. */
    signal?: AbortSignal;
    graceMs?: number;
  },
): Promise<CleanupResult> {
  // The run is read once, from the store: it may have been recorded on another machine.
  const record = await options.ledger.getRun(options.runId);
  const created = createdBy(record.entries);
  const marker = (record.run.meta as { marker?: unknown }).marker;
  const posted = typeof marker === 'string' && marker ? postedCollections(record.entries, marker) : [];
  if (created.length === 0 && posted.length === 0) {
    throw new TallyError(
      'NOTHING_TO_CLEAN',
      `Run ${options.runId} created nothing that still existed at its end (no net creates in its ledger)${marker ? ' and sent nothing carrying its marker' : ''}. Nothing was deleted.`,
      { runId: options.runId },
    );
  }
  const earlier = await confirmedEarlier(options.ledger, options.runId);
  const context = await buildFishContext({
    ...options,
    created: created.map((item) => item.path),
    ...(posted.length > 0
      ? {
          markedBy: {
            marker: marker as string,
            fields: Object.fromEntries(posted.map((collection) => [collection.path, [...collection.fields]])),
          },
        }
      : {}),
  });
  const agent = defineAgent({
    name: 'fisherman-cleanup',
    instructions: 'Delete what a run created with request; confirm with lookup.',
    tools: [requestTool(context), lookupTool(context)],
    claimEffect: 'deleted',
  });
  const deletions: Deletion[] = [];
  const unlisted: { path: string; why: string }[] = [];
  let authFailed: AuthFailure | undefined;
  const stopForAuth = (failure: AuthFailure) => {
    authFailed = failure;
    const done = deletions.filter((deletion) => deletion.outcome === 'deleted');
    if (done.length === 0) return { stop: authFailureText(failure), failed: true };
    // What was deleted before the refusal is still claimed (and checked), so a later cleanup
    // counts it as its own earlier work.
    return {
      finish: {
        summary: `Deleted and confirmed ${done.length}, then ${authFailureText(failure)}; nothing after it was sent.`,
        claims: done.map((deletion) => ({ target: deletion.path, effect: 'deleted' as const })),
        failed: [{ target: failure.path, reason: authFailureText(failure) }],
      },
    };
  };
  const result = await options.ledger.withKnownSecrets(context.knownSecrets, () =>
    runPlan(
      agent,
      `cleanup ${options.runId}`,
      async (call) => {
        const known = new Set(created.map((item) => canonicalPath(item.path)));
        const found: Created[] = [];
        for (const collection of posted) {
          const listing = await call('lookup', { path: collection.path });
          const listingRefused = refused('GET', collection.path, listing);
          if (listingRefused) return stopForAuth(listingRefused);
          if (listing.outcome !== 'ok') {
            unlisted.push({
              path: collection.path,
              why:
                (listing.result as { message?: string; status?: number } | undefined)?.message ??
                listing.error?.message ??
                `status ${statusOf(listing) ?? 'none'}`,
            });
            continue;
          }
          const marked = (listing.result as { marked?: MarkedItem[] } | undefined)?.marked ?? [];
          for (const item of marked) {
            if (known.has(item.path)) continue;
            known.add(item.path);
            // Sent by a recorded request: its place in the run. Else (its request never reached
            // the ledger: an outage, an interrupt) just after the last recorded POST to its
            // collection, where it was sent: a child collection's items, posted after their
            // parents, still go first (all "never recorded" as leaves deleted suites before tests).
            const order = collection.sent.get(item.value) ?? lastSent(collection) + 0.5;
            found.push({
              type: typeOfCollection(collection.path),
              id: item.id,
              path: item.path,
              order,
              foundBy: 'marker',
            });
          }
        }
        // Children before parents: newest first, by where each stands in the cleaned run.
        const everything = [...created, ...found].sort((a, b) => b.order - a.order);
        for (const { order: _order, ...item } of everything) {
          const read = await call('lookup', { path: item.path });
          const before = statusOf(read);
          const base = { ...item, ...(before !== undefined ? { beforeStatus: before } : {}) };
          if ((before !== undefined && GONE.has(before)) || (before === 403 && earlier.has(item.path))) {
            deletions.push({ ...base, outcome: 'already-gone', ok: true });
            continue;
          }
          const readRefused = refused('GET', item.path, read);
          if (readRefused) return stopForAuth(readRefused);
          const removal = await call('request', { method: 'DELETE', path: item.path });
          const removalRefused = refused('DELETE', item.path, removal);
          if (removalRefused) return stopForAuth(removalRefused);
          const status = statusOf(removal);
          if (status !== undefined && GONE.has(status)) {
            deletions.push({ ...base, status, outcome: 'already-gone', ok: true });
            continue;
          }
          if (removal.outcome !== 'ok') {
            const message = messageOf(removal);
            deletions.push({
              ...base,
              ...(status !== undefined ? { status } : {}),
              outcome: 'failed',
              ok: false,
              ...(message ? { why: message } : {}),
            });
            continue;
          }
          const after = statusOf(await call('lookup', { path: item.path }));
          const confirmed = after !== undefined && (GONE.has(after) || (after === 403 && before === 200));
          deletions.push({
            ...base,
            ...(status !== undefined ? { status } : {}),
            ...(after !== undefined ? { confirmStatus: after } : {}),
            outcome: confirmed ? 'deleted' : 'not-confirmed',
            ok: confirmed,
            ...(confirmed ? {} : { why: `a read after the DELETE still answered ${after ?? 'nothing'}` }),
          });
        }
        const count = (outcome: DeletionOutcome) =>
          deletions.filter((deletion) => deletion.outcome === outcome);
        const deleted = count('deleted');
        const gone = count('already-gone');
        const notOk = deletions.filter((deletion) => !deletion.ok);
        const byMarker = found.length
          ? ` (${found.length} found by the run's marker, not among its recorded creates)`
          : '';
        const notListed = unlisted.length
          ? ` Could not list ${unlisted.map((item) => `${item.path} (${item.why})`).join('; ')} for the run's marker.`
          : '';
        const summary = `Cleaned ${deletions.length - notOk.length} of ${deletions.length} resources created by ${options.runId}${byMarker}: ${deleted.length} deleted and confirmed, ${gone.length} already gone${notOk.length ? `, ${notOk.length} not confirmed (${namedProblems(notOk)})` : ''}.${notListed}`;
        if (deleted.length === 0 && notOk.length === 0) return { nothingToDo: summary };
        // Nothing deleted to claim: say what went wrong, not "nothing it claimed is backed by evidence".
        if (deleted.length === 0) return { stop: summary, failed: true };
        return {
          finish: {
            summary,
            claims: deleted.map((deletion) => ({ target: deletion.path, effect: 'deleted' as const })),
            failed: notOk.map((deletion) => ({
              target: deletion.path,
              reason: deletion.why ?? deletion.outcome,
            })),
          },
        };
      },
      {
        ledger: options.ledger,
        meta: { cleans: options.runId, baseUrl: context.baseUrl },
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
      },
    ),
  );
  return {
    ...result,
    cleanedRunId: options.runId,
    deletions,
    ...(unlisted.length ? { unlisted } : {}),
    ...(authFailed ? { authFailed } : {}),
  };
}
