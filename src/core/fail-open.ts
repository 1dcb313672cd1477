import { appendFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isFailOpenReason } from './fail-open-reasons.js';
import { makeDirs } from './make-dirs.js';

export interface FailOpenLine {
  ts: string;
  component: string;
  why: string;
  session: string | null;
}

export type FailOpen = (component: string, why: string, session?: string) => void;

// Security: values come from payloads we do not control; keep them to one short, inert token.
function sanitize(value: string, max = 120): string {
  return value.replace(/[^A-Za-z0-9._:/@+-]/g, '_').slice(0, max);
}

export function failOpenLine(component: string, why: string, session?: string): FailOpenLine {
  const cleanWhy = sanitize(String(why));
  return {
    ts: new Date().toISOString(),
    component: sanitize(String(component), 60) || 'unknown',
    why: isFailOpenReason(cleanWhy) ? cleanWhy : `unrecognized:${cleanWhy}`,
    session: session === undefined || session === null ? null : sanitize(String(session)),
  };
}

export interface FailOpenOptions {
  /** JSON-lines log file; one line per fail-open. */
  logPath: string;
  /** Also record in the ledger of the active run. */
  onRecord?: (line: FailOpenLine) => void;
}

/**
 * `failOpen(component, why, session?)` appends one JSON line and never throws: a component
 * that fails open must not fail closed because its own bookkeeping failed.
 */
export function createFailOpen(options: FailOpenOptions): FailOpen {
  return (component, why, session) => {
    const line = failOpenLine(component, why, session);
    try {
      makeDirs(dirname(options.logPath));
      appendFileSync(options.logPath, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    } catch (error) {
      process.stderr.write(`tally: could not write the fail-open log ${options.logPath}: ${String(error)}\n`);
    }
    try {
      options.onRecord?.(line);
    } catch (error) {
      process.stderr.write(`tally: could not record a fail-open in the ledger: ${String(error)}\n`);
    }
  };
}
