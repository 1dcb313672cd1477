import { type Effect, effectsOf, type NetEffects } from '../../core/effects.js';
import type { LedgerEntry } from '../../core/ledger/entry.js';
import type { FileChange } from './chat-record.js';

const SHA_PREFIX = 12;

/** What a path held at one moment, as the tools observed it. */
export type FileState =
  | { exists: false }
  /** `sha256` (and `bytes`) absent: it existed, its content is not known (a large file, an old ledger). */
  | { exists: true; bytes?: number; sha256?: string };

/** One path through a turn: its state before the turn's first call on it, and after its last. */
export interface PathHistory {
  path: string;
  first: FileState;
  last: FileState;
  read: boolean;
  /** Whether a successful call wrote, deleted or moved it. */
  written: boolean;
  /** The call that last changed it (its evidence line) and, for a move, the other end. */
  via: string;
  movedFrom?: string;
}

const ABSENT: FileState = { exists: false };

/** An existing file, with the size and hash recorded in `value` where they are known. */
function present(value: object): FileState {
  const { bytes, sha256 } = value as { bytes?: unknown; sha256?: unknown };
  return {
    exists: true,
    ...(typeof bytes === 'number' ? { bytes } : {}),
    ...(typeof sha256 === 'string' ? { sha256 } : {}),
  };
}

function stateOf(value: unknown): FileState | undefined {
  if (value === null) return ABSENT;
  return typeof value === 'object' ? present(value) : undefined;
}

/**
 * The state a call found: `observed.before` when the tool recorded it, else what its kind
 * implies (a read's own observation replaces it in `fileHistories`).
 */
function beforeOf(effect: Effect): FileState {
  const observed = effect.observed ?? {};
  if ('before' in observed) {
    const recorded = stateOf(observed.before);
    if (recorded) return recorded;
  }
  // Ledgers written before `before` was recorded: a create found nothing, the rest found a file.
  return effect.kind === 'created' ? ABSENT : { exists: true };
}

function afterOf(effect: Effect): FileState {
  return effect.kind === 'deleted' ? ABSENT : present(effect.observed ?? {});
}

/** One successful tool call as `fileHistoriesOf` reads it: what the ledger's entry or an evidence view holds. */
export interface EffectCall {
  tool: string;
  target: string;
  evidence: { via?: string; effects?: unknown[] } | undefined;
}

/**
 * Every file a turn's successful tool calls touched, in ledger order: the state before the
 * first call on it (the tools record `observed.before` where they already hold the file:
 * fs_edit's read, the rename of fs_move; fs_write and fs_delete hash what they replace) and
 * the state after the last one. Computed from the ledger alone.
 */
export function fileHistories(entries: readonly LedgerEntry[]): Map<string, PathHistory> {
  const calls: EffectCall[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'tool_call' || entry.outcome !== 'ok') continue;
    calls.push({
      tool: String(entry.data.tool),
      target: String(entry.data.target ?? ''),
      evidence: entry.data.evidence,
    });
  }
  return fileHistoriesOf(calls);
}

/** `fileHistories` over successful calls, oldest first (a claim verifier's evidence view). */
export function fileHistoriesOf(calls: Iterable<EffectCall>): Map<string, PathHistory> {
  const paths = new Map<string, PathHistory>();
  for (const call of calls) {
    const evidence = call.evidence;
    if (!Array.isArray(evidence?.effects)) continue;
    const via = evidence.via ?? `${call.tool} ${call.target}`;
    for (const effect of effectsOf(evidence)) {
      if (effect.space !== 'file') continue;
      let path = paths.get(effect.key);
      if (!path) {
        const first = beforeOf(effect);
        path = { path: effect.key, first, last: first, read: false, written: false, via: '' };
        paths.set(effect.key, path);
      }
      if (effect.kind === 'read') {
        path.read = true;
        // A read sees the file as it is: it fills in content an earlier step could not know.
        const seen = afterOf(effect);
        if (path.last.exists && path.last.sha256 === undefined) path.last = seen;
        if (!path.written) path.first = seen;
        continue;
      }
      path.written = true;
      path.last = afterOf(effect);
      path.via = via;
      if (effect.movedFrom) path.movedFrom = effect.movedFrom;
      else delete path.movedFrom;
    }
  }
  return paths;
}

/** Same content: both hashes known and equal. */
function sameContent(a: FileState, b: FileState): boolean {
  return a.exists && b.exists && a.sha256 !== undefined && a.sha256 === b.sha256;
}

/** Content that cannot be compared (a hash is missing on either side). */
function unknownContent(a: FileState, b: FileState): boolean {
  return !(a.exists && a.sha256 !== undefined && b.exists && b.sha256 !== undefined);
}

function facts(state: FileState): { bytes?: number; sha256?: string } {
  if (!state.exists) return {};
  return {
    ...(state.bytes !== undefined ? { bytes: state.bytes } : {}),
    ...(state.sha256 !== undefined ? { sha256: state.sha256.slice(0, SHA_PREFIX) } : {}),
  };
}

/**
 * The files a turn changed, BY CONTENT (never from the model's words): each path's state
 * before the turn's first call on it against its state after the last. Reverted (the same
 * sha256 again) is no change; created then deleted is nothing; a path that is gone whose
 * content now stands at a path that is new (or replaced) is one `moved` row at the
 * destination with `from` — and so is an fs_move whose content cannot be hashed (files
 * inside a moved directory). Everything else is `created`, `updated` or `deleted`.
 */
export function contentChanges(histories: ReadonlyMap<string, PathHistory>): FileChange[] {
  const deleted: PathHistory[] = [];
  const arrived: PathHistory[] = [];
  const rows: FileChange[] = [];
  for (const path of histories.values()) {
    if (!path.written) continue;
    const { first, last } = path;
    if (!first.exists && !last.exists) continue;
    if (first.exists && !last.exists) deleted.push(path);
    else if (!first.exists) arrived.push(path);
    else if (!sameContent(first, last)) arrived.push(path);
  }
  const sources = new Set(deleted);
  const movedFrom = new Map<PathHistory, PathHistory>();
  for (const destination of arrived) {
    const candidates = [...sources].filter(
      (source) =>
        sameContent(source.first, destination.last) ||
        (destination.movedFrom === source.path && unknownContent(source.first, destination.last)),
    );
    const source = candidates.find((candidate) => candidate.path === destination.movedFrom) ?? candidates[0];
    if (!source) continue;
    sources.delete(source);
    movedFrom.set(destination, source);
  }
  for (const path of sources) rows.push({ path: path.path, change: 'deleted', via: path.via });
  for (const path of arrived) {
    const source = movedFrom.get(path);
    if (source)
      rows.push({
        path: path.path,
        change: 'moved',
        from: source.path,
        ...facts(path.last),
        ...(path.first.exists ? { replaced: true } : {}),
        via: path.via,
      });
    else
      rows.push({
        path: path.path,
        change: path.first.exists ? 'updated' : 'created',
        ...facts(path.last),
        via: path.via,
      });
  }
  // Code-point order: the same on every machine and locale.
  return rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The changes report of a turn: its ledger entries → `fileHistories` → `contentChanges`. */
export function changesReport(entries: readonly LedgerEntry[]): FileChange[] {
  return contentChanges(fileHistories(entries));
}

/** Whether a turn's net effects changed the layout (a file appeared, vanished or moved). */
export function layoutSignature(nets: NetEffects): string {
  return [...nets.values()]
    .filter((net) => net.space === 'file' && (net.change === 'created' || net.change === 'deleted'))
    .map((net) => `${net.change}:${net.key}`)
    .sort()
    .join('\n');
}
