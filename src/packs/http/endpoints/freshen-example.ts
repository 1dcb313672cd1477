import {
  isUniqueField,
  TITLE_FIELD,
  tokenText,
  tokenUuid,
  type UniqueToken,
} from '../openapi/sample-value.js';
import { isTooDeep } from '../tools/body-depth.js';

const EMAIL = /^([^@\s+]+)(?:\+[^@\s]*)?@([^@\s]+)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WORDISH = /^[\w.-]{1,40}$/;

/**
 * A captured value made this item's own, in the captured value's shape: an email gets a
 * `+token` tag (same mailbox and domain), a UUID a new UUID, a slug or code the token
 * appended (`alpha-a1b2c31`, `SKU42A1B2C31`). Anything else stays as captured.
 */
function ownValue(value: string, unique: UniqueToken): string {
  const token = tokenText(unique);
  const email = EMAIL.exec(value);
  if (email) return `${email[1]}+${token}@${email[2]}`;
  if (UUID.test(value)) return tokenUuid(unique);
  if (!WORDISH.test(value)) return value;
  if (/^[A-Z0-9_]+$/.test(value)) return `${value}${token.toUpperCase()}`;
  return `${value}${/[-_.]$/.test(value) ? '' : value.includes('_') ? '_' : '-'}${token}`;
}

/**
 * The spec sampler's unique names, less person names (`first_name` is no identifier): a
 * captured value is real data, changed only where a duplicate would be refused.
 */
const ownedField = (key: string) =>
  isUniqueField(key) &&
  !TITLE_FIELD.test(key) &&
  (!/name$/i.test(key) || /(user|nick|screen)_?name$/i.test(key));

/**
 * A captured request body replayed for one item: title-like fields carry the label, and
 * fields a server may require to be unique (email, username, slug, code … — the same names as
 * the spec sampler's) get this item's own value, so N creates of one run, and a second run,
 * do not collide on them. Nested objects are walked (an `{ user: { email } }` body); arrays
 * and other values are replayed as captured.
 */
export function freshenExample(body: unknown, label: string, unique: UniqueToken): Record<string, unknown> {
  // A body that is not an object (a JSON array, a text) is replayed as captured: a copy, so the
  // captured example stays as it was, unless it is nested past the request's limit. Such a body
  // is handed on uncopied (structuredClone overflowed the stack on an array 5,000 deep and
  // aborted the run); the request refuses it as BODY_TOO_DEEP before anything is sent.
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return (
      body === undefined || body === null ? {} : isTooDeep(body) ? body : structuredClone(body)
    ) as Record<string, unknown>;
  // Copied only as deep as it is changed (four levels): the captured example stays as it was,
  // and a hostile one nested thousands deep is never cloned whole (structuredClone overflowed
  // the stack on 5,000 levels and aborted the run).
  const visit = (object: Record<string, unknown>, depth: number, top: boolean): Record<string, unknown> => {
    const copy = { ...object };
    // Indexed, not `for…of Object.entries`: cheaper for V8 to optimize (see linksOf in http-effects.ts).
    const keys = Object.keys(copy);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const value = copy[key];
      if (typeof value === 'string') {
        if (top && TITLE_FIELD.test(key)) copy[key] = label;
        else if (ownedField(key)) copy[key] = ownValue(value, unique);
      } else if (value && typeof value === 'object' && !Array.isArray(value) && depth < 4)
        copy[key] = visit(value as Record<string, unknown>, depth + 1, false);
    }
    return copy;
  };
  return visit(body as Record<string, unknown>, 0, true);
}
