const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
const OBJECT_ID = /^[0-9a-f]{24}$/i;
const LONG_HEX = /^[0-9a-f]{16,}$/i;
const DIGITS = /^\d+$/;
const VERSION = /^v\d+(\.\d+)*$/i;
const ORDINARY_WORD = /^[a-z]+(_[a-z]+)*$/;

/** A segment that is an id whatever the context: digits, UUID, ULID, ObjectId, long hex. */
export function isStrongId(segment: string): boolean {
  if (VERSION.test(segment)) return false;
  return (
    DIGITS.test(segment) ||
    UUID.test(segment) ||
    ULID.test(segment) ||
    OBJECT_ID.test(segment) ||
    LONG_HEX.test(segment)
  );
}

/** Version prefixes and plain words (`suites`, `move`, `api`) are literals even when they vary. */
export function isLiteralWord(segment: string): boolean {
  return VERSION.test(segment) || ORDINARY_WORD.test(segment);
}

export function splitPath(path: string): string[] {
  return path.split('/').filter(Boolean);
}
