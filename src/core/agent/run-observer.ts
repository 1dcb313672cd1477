import { AsyncLocalStorage } from 'node:async_hooks';
import { errorMessage } from '../errors.js';
import type { NewEntry } from '../ledger/entry.js';

/**
 * What an observer of a run is told, as it happens. `entry` is every ledger append of the
 * run (tool_call, model_call, guard, nudge, gate, claim, fail_open, end), already redacted;
 * `model-text` is the text of a model response (not persisted: the ledger keeps counts),
 * told after its `model_call` entry. `model-text-delta` is a piece of that text while the
 * response streams in, before its entry; joined, the pieces of one response are its text
 * (untrimmed). Pieces are redacted one by one and let out at word ends (see
 * `recordingModel`); where the two could differ, `model-text` is the redacted truth.
 */
export type RunEvent =
  | {
      type: 'run-start';
      runId: string;
      agent: string;
      task: string;
      meta: Record<string, unknown>;
      time: number;
    }
  | { type: 'entry'; runId: string; agent: string; entry: NewEntry; time: number }
  | { type: 'model-text'; runId: string; agent: string; text: string; time: number }
  | { type: 'model-text-delta'; runId: string; agent: string; delta: string; time: number };

/** Called synchronously on the loop's path: keep it cheap; it must not throw (if it does, it is detached). */
export type RunObserver = (event: RunEvent) => void;

// Why a context-scoped store and not only an option: agents between a surface and the loop
// (a library entry, a sub-agent, a chat turn) pass a ledger through, not every loop option.
// Scoped to `work`'s async calls only, like `Ledger.withKnownSecrets`; holds no global value.
const scope = new AsyncLocalStorage<RunObserver>();

/** Runs `work` with `observer` told about every run it starts, however deep (runAgent, runPlan). */
export function withRunObserver<T>(observer: RunObserver, work: () => T): T {
  const outer = scope.getStore();
  return scope.run(outer ? combineObservers(outer, observer) : observer, work);
}

/** The observer of the current async context, if any. */
export function currentRunObserver(): RunObserver | undefined {
  return scope.getStore();
}

/** One observer that tells each of `observers` in turn. */
export function combineObservers(...observers: RunObserver[]): RunObserver {
  return (event) => {
    for (const observer of observers) observer(event);
  };
}

/**
 * Wraps an observer so a fault in it never reaches the run: the first throw detaches it
 * (one line on stderr says so) and the run goes on as if nobody watched.
 */
export function guardedObserver(observer: RunObserver): RunObserver {
  let attached = true;
  return (event) => {
    if (!attached) return;
    try {
      observer(event);
    } catch (error) {
      attached = false;
      process.stderr.write(
        `tally: a run observer failed (${errorMessage(error)}) and was detached; the run continues and its ledger is complete.\n`,
      );
    }
  };
}
