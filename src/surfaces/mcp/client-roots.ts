import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { FailOpen } from '../../core/fail-open.js';
import { type ProjectRoot, realLocation } from '../../packs/workspace/project-root.js';
// Registers roots-unavailable.
import './mcp-fail-open-reasons.js';

/**
 * How long a tool call waits for the client's `roots/list` answer before it goes on without
 * it: short enough that a client that never answers still gets every call answered in under
 * 2 s, since a late answer is still applied when it comes.
 */
export const DEFAULT_ROOTS_TIMEOUT_MS = 1500;
/**
 * A late answer is still awaited (and applied) this many deadlines long (30 s by default);
 * then the request is given up, its timeout caught like any other failure.
 */
export const ROOTS_ANSWER_LIMIT_FACTOR = 20;

/**
 * A `roots/list` answer as Tally reads it. Looser than the SDK's schema on purpose: that one
 * refuses the whole list over one root that is not `file://` (`https://…`, `FILE:///…`), and a
 * refused answer leaves the tools on the whole --root, so one odd root beside the file roots
 * would widen what the client asked for. Each root is judged on its own instead.
 */
export const RootsAnswerSchema = z.looseObject({
  roots: z.array(z.looseObject({ uri: z.string(), name: z.string().optional() })),
});

/** Sends `roots/list` to the client, given up after `limitMs` (the session picks a route it can receive). */
export type AskRoots = (limitMs: number) => Promise<{ roots: { uri: string; name?: string }[] }>;

export interface ClientRootsOptions {
  projectRoot: ProjectRoot;
  /** How long a tool call waits for an answer. */
  timeoutMs: number;
  /** How long an answer is awaited at all (default ROOTS_ANSWER_LIMIT_FACTOR deadlines). */
  answerLimitMs?: number;
  failOpen: FailOpen;
  /** One line per change of what the tools may use (stderr in `tally mcp`). */
  log: (line: string) => void;
}

export interface ClientRoots {
  /** The client said its roots changed: the next `ready` asks again. */
  invalidate: () => void;
  /** Asks now; resolves once applied, failed or past the deadline (the answer may still come). Never rejects. */
  refresh: (ask: AskRoots) => Promise<void>;
  /** Resolves once the roots are known or given up on (asking if they are stale). Never rejects. */
  ready: (ask: AskRoots) => Promise<void>;
}

/**
 * The file roots as real paths; a missing one keeps its would-be location (it may narrow, never
 * widen). `unusable`: file roots that name no path here (another host, an encoded `/`).
 */
async function rootPaths(roots: { uri: string }[]): Promise<{ paths: string[]; unusable: string[] }> {
  const paths: string[] = [];
  const unusable: string[] = [];
  for (const { uri } of roots) {
    if (typeof uri !== 'string') continue;
    // Security: a root that is no URL at all (a bare path) is malformed, not "no narrowing".
    const url = URL.canParse(uri) ? new URL(uri) : undefined;
    if (!url) {
      unusable.push(uri);
      continue;
    }
    // Another scheme (https://, git:) names nothing on this disk: it offers no narrowing.
    if (url.protocol !== 'file:') continue;
    let path: string;
    try {
      path = fileURLToPath(url);
    } catch (error) {
      // A file URL naming another host (file://server/share) is no path on this machine.
      if (error instanceof TypeError) {
        unusable.push(uri);
        continue;
      }
      throw error;
    }
    paths.push((await realLocation(path)).real);
  }
  return { paths, unusable };
}

/** One line for the log: a schema failure lists its issues, not its JSON dump. */
function describeFailure(error: unknown): string {
  const issues = (error as { issues?: unknown }).issues;
  if (Array.isArray(issues))
    return `the answer is not a roots list: ${issues
      .map(
        (issue: { path?: unknown[]; message?: string }) =>
          `${(issue.path ?? []).join('.') || '(root)'}: ${issue.message}`,
      )
      .join('; ')}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * An MCP client's roots, applied to the project root as an intersection. Asking is the
 * session's business (it knows when the client can receive a request); this keeps the
 * answer, the deadline and the failure policy: a client that does not answer in time, or
 * answers with an error, leaves the tools on what they had (at first, the whole --root) and
 * is logged as a fail-open, never an error a tool call waits on; a late answer still applies.
 */
export function createClientRoots(options: ClientRootsOptions): ClientRoots {
  const { projectRoot, timeoutMs } = options;
  const answerLimitMs = Math.max(options.answerLimitMs ?? timeoutMs * ROOTS_ANSWER_LIMIT_FACTOR, timeoutMs);
  let stale = true;
  let asked = 0;
  let inFlight: { wait: Promise<void> } | undefined;

  const apply = async (ask: AskRoots, attempt: number, failure: { reported: boolean }) => {
    try {
      const answer = await ask(answerLimitMs);
      const roots = Array.isArray(answer?.roots) ? answer.roots : [];
      const { paths, unusable } = await rootPaths(roots);
      // An older answer that arrives after a newer question must not overwrite its answer.
      if (attempt !== asked) return;
      // Security: a file root the server cannot read still narrows (to nothing), never widens.
      const allowed = projectRoot.narrow(paths, unusable);
      const sent = roots.map((root) => root.uri).join(', ');
      if (unusable.length > 0)
        options.log(
          `the client's roots ${unusable.join(', ')} name no path on this machine (another host, or an encoded "/"): they allow nothing${allowed.length === 0 ? ", so every path is refused until the client's roots change" : `; the tools serve ${allowed.join(', ')}`}.`,
        );
      else if (paths.length === 0)
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
      // client's last answer), so this fails open instead of failing the call.
      if (!failure.reported) options.failOpen('mcp-roots', 'roots-unavailable');
      failure.reported = true;
      options.log(
        `roots/list failed (${describeFailure(error)}): the tools keep serving ${projectRoot.allowedRoots.join(', ')}; asked again when the client sends roots/list_changed.`,
      );
    }
  };

  const refresh = (ask: AskRoots): Promise<void> => {
    stale = false;
    asked += 1;
    const attempt = asked;
    const failure = { reported: false };
    let settled = false;
    const current = { wait: Promise.resolve() };
    const done = apply(ask, attempt, failure).finally(() => {
      settled = true;
      if (inFlight === current) inFlight = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        if (!settled && attempt === asked && !failure.reported) {
          failure.reported = true;
          options.failOpen('mcp-roots', 'roots-unavailable');
          options.log(
            `the client has not answered roots/list within ${timeoutMs} ms: the tools serve ${projectRoot.allowedRoots.join(', ')} meanwhile, and apply its answer if it comes.`,
          );
        }
        resolve();
      }, timeoutMs);
      timer.unref();
    });
    // Calls wait for the answer or the deadline, whichever is first; once the deadline passed,
    // later calls find this settled and do not wait again.
    current.wait = Promise.race([done, deadline]).finally(() => clearTimeout(timer));
    inFlight = current;
    return current.wait;
  };

  return {
    invalidate: () => {
      stale = true;
    },
    refresh,
    ready: (ask) => (stale ? refresh(ask) : (inFlight?.wait ?? Promise.resolve())),
  };
}
