import { decodePercent } from '../../../core/percent-decoding.js';
import { singular } from '../../../core/type-words.js';
import { ID } from '../endpoints/path-normalizer.js';
import { titleField } from './request-intent.js';

/** The separator between a title and the run's marker, as every tier writes it (`Smoke · 3fa9c1`). */
export const MARKER_SEPARATOR = ' · ';

/**
 * Whether a POST to this path makes a resource rather than acting on one: the path does not
 * end in an id, and it ends in a plural noun (`/posts/1/comments`) or holds no id at all
 * (`/api/article`). `…/suites/101/move` is an action.
 */
function createsResource(path: string, normalize: (path: string) => string): boolean {
  const bare = path.split(/[?#]/)[0] ?? path;
  const pattern = normalize(bare).split('/').filter(Boolean);
  const last = pattern.at(-1);
  if (last === undefined || last === ID) return false;
  const word = decodePercent(last).toLowerCase();
  return singular(word) !== word || !pattern.includes(ID);
}

export interface StampedBody {
  /** The body to send: the model's, or a copy with the marker added to its title. */
  body: unknown;
  /** The field the marker was added to, and its value as sent. */
  stamped?: { field: string; value: string };
}

/**
 * The run's marker in a create's title, so a create whose response is lost can be found
 * again by a read (`ApiClient` reconciles by marked values). Only a POST that makes a
 * resource; only its title-like field holding a non-blank string (a blank title stays blank
 * and fails as it would); never when a top-level string of the body already carries the
 * marker (the model wrote it, or a plan did). Deterministic, so the tool's intent (the status
 * rule) and its execution agree on the body.
 */
export function stampMarker(
  method: string,
  path: string,
  body: unknown,
  marker: string | undefined,
  normalize: (path: string) => string,
): StampedBody {
  if (!marker || method.toUpperCase() !== 'POST' || !createsResource(path, normalize)) return { body };
  const field = titleField(body);
  if (field === undefined) return { body };
  const fields = body as Record<string, unknown>;
  if (Object.values(fields).some((value) => typeof value === 'string' && value.includes(marker)))
    return { body };
  const value = `${(fields[field] as string).trimEnd()}${MARKER_SEPARATOR}${marker}`;
  return { body: { ...fields, [field]: value }, stamped: { field, value } };
}
