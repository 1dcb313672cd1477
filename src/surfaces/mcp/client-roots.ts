import { fileURLToPath } from 'node:url';
import type { FailOpen } from '../../core/fail-open.js';
import { type ProjectRoot, realLocation } from '../../packs/workspace/project-root.js';

/** How long a `roots/list` may take before the tools go on without it. */
export const DEFAULT_ROOTS_TIMEOUT_MS = 3000;

/** Sends `roots/list` to the client with this deadline (the session picks a route it can receive). */
export type AskRoots = (timeoutMs: number) => Promise<{ roots: { uri: string; name?: string }[] }>;

export interface ClientRootsOptions {
  projectRoot: ProjectRoot;
  timeoutMs: number;
  failOpen: FailOpen;
  /** One line per change of what the tools may use (stderr in `tally mcp`). */
  log: (line: string) => void;
}

export interface ClientRoots {
  /** The client said its roots changed: the next `ready` asks again. */
  invalidate: () => void;
  /** Asks now; resolves once applied or given up on, within the deadline. Never rejects. */
  refresh: (ask: AskRoots) => Promise<void>;
  /** Resolves once the roots are known or given up on (asking if they are stale). Never rejects. */
  ready: (ask: AskRoots) => Promise<void>;
}

/** The file roots as real paths; a missing one keeps its would-be location (it may narrow, never widen). */
async function rootPaths(roots: { uri: string }[]): Promise<string[]> {
  const paths: string[] = [];
  for (const { uri } of roots) {
    if (!uri.startsWith('file://')) continue;
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch (error) {
      // A file URL naming another host (file://server/share) is no path on this machine.
      if (error instanceof TypeError) continue;
      throw error;
    }
    paths.push((await realLocation(path)).real);
  }
  return paths;
}

function withDeadline<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/**
 * An MCP client's roots, applied to the project root as an intersection. Asking is the
 * session's business (it knows when the client can receive a request); this keeps the
 * answer, the deadline and the failure policy: a client that never answers, or answers
 * garbage, leaves the tools on what they had (at first, the whole --root) and is logged as a
 * fail-open, never an error a tool call waits on.
 */
export function createClientRoots(options: ClientRootsOptions): ClientRoots {
  const { projectRoot, timeoutMs } = options;
  let stale = true;
  let asked = 0;
  let inFlight: Promise<void> | undefined;

  const apply = async (ask: AskRoots, attempt: number) => {
    try {
      const answer = await withDeadline(ask(timeoutMs), timeoutMs);
      const roots = Array.isArray(answer?.roots) ? answer.roots : [];
      const paths = await rootPaths(roots);
      // An older answer that arrives after a newer question must not overwrite its answer.
      if (attempt !== asked) return;
      const allowed = projectRoot.narrow(paths);
      const sent = roots.map((root) => root.uri).join(', ');
      if (paths.length === 0)
        options.log(
          `the client sent ${roots.length === 0 ? 'an empty roots list' : `no file roots (${sent})`}: no narrowing, the tools serve the whole --root ${projectRoot.realRoot}.`,
        );
      else if (allowed.length === 0)
        options.log(
          `the client's roots (${sent}) share nothing with --root ${projectRoot.realRoot}: every path is refused until the client's roots change.`,
        );
      else options.log(`the client's roots (${sent}): the tools serve ${allowed.join(', ')}.`);
    } catch (error) {
      if (attempt !== asked) return;
      // Roots only narrow: going on without them keeps the tools inside --root (or inside the
      // client's last answer), so this fails open instead of holding the call.
      options.failOpen('mcp-roots', 'roots-unavailable');
      options.log(
        `roots/list failed (${error instanceof Error ? error.message : String(error)}): the tools keep serving ${projectRoot.allowedRoots.join(', ')}; asked again when the client sends roots/list_changed.`,
      );
    }
  };

  const refresh = (ask: AskRoots): Promise<void> => {
    stale = false;
    asked += 1;
    const current = apply(ask, asked).finally(() => {
      if (inFlight === current) inFlight = undefined;
    });
    inFlight = current;
    return current;
  };

  return {
    invalidate: () => {
      stale = true;
    },
    refresh,
    ready: (ask) => (stale ? refresh(ask) : (inFlight ?? Promise.resolve())),
  };
}
