import { createRequire } from 'node:module';
import { fastFrontmatter, fastFrontmatterNodes } from './fast-frontmatter.js';
import { MAX_NODES, plainFrontmatter } from './plain-frontmatter.js';

// Loaded on first use, not at start-up: a warm records query never parses YAML, and the
// parser is ~15 ms of every CLI call otherwise. Node's module cache makes later calls cheap.
const require = createRequire(import.meta.url);
// Security: aliases are capped (billion laughs: nine aliases of nine aliases of … expand
// exponentially); past the cap the parser throws, and the record is reported as invalid YAML.
const MAX_ALIAS_COUNT = 100;
const parseYaml = (text: string): unknown =>
  (require('yaml') as typeof import('yaml')).parse(text, {
    logLevel: 'error',
    maxAliasCount: MAX_ALIAS_COUNT,
  });

/**
 * Security (issue 19): a frontmatter block is a few lines of fields. Past this size it is not
 * parsed at all (20 MB of YAML took seconds per read, 24 s for a first query): the record is
 * reported by lint and skipped by queries, like one that cannot be represented.
 */
export const FRONTMATTER_MAX_BYTES = 256 * 1024;

const CLOSING_FENCE = /\n---[ \t]*(?:\n|$)/g;

/** The frontmatter's size in bytes when it is over the cap, else undefined (never parsed past it). */
function oversizedFrontmatter(normalized: string): number | undefined {
  if (!normalized.startsWith('---\n')) return undefined;
  CLOSING_FENCE.lastIndex = 3;
  const closing = CLOSING_FENCE.exec(normalized);
  const end = closing ? closing.index : normalized.length;
  // UTF-8 takes at most 3 bytes per UTF-16 unit: count bytes only when it could matter.
  if (end - 4 <= FRONTMATTER_MAX_BYTES / 3) return undefined;
  const bytes = Buffer.byteLength(normalized.slice(4, end));
  return closing && bytes > FRONTMATTER_MAX_BYTES ? bytes : undefined;
}

export interface RecordFields {
  id?: string;
  kind?: string;
  date?: string;
  status?: string;
  title?: string;
  project?: string;
  keywords: string[];
  links: Record<string, string[]>;
  /** Everything else in the frontmatter, kept as-is. */
  extra: Record<string, unknown>;
}

export interface ParsedRecord {
  fields: RecordFields;
  body: string;
  /** Problems reading the frontmatter; the record is still searchable by its body. */
  errors: string[];
  /**
   * Why the frontmatter cannot be represented as data (a self-referencing alias, absurd
   * nesting): such a record is skipped by queries and reported by lint, never indexed.
   */
  unrepresentable?: string;
}

function asString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
}

function asList(value: unknown): string[] {
  if (Array.isArray(value)) {
    // One loop, not map/filter/map: three arrays and three callbacks per list, run cold.
    const items: string[] = [];
    for (let index = 0; index < value.length; index++) {
      const item = asString(value[index])?.trim();
      if (item) items.push(item);
    }
    return items;
  }
  const text = asString(value);
  return text
    ? text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : [];
}

/** The fields of a record whose frontmatter is not read: a fresh object per refusal, made only then. */
const emptyFields = (): RecordFields => ({ keywords: [], links: {}, extra: {} });

const KNOWN = new Set(['id', 'kind', 'date', 'status', 'title', 'project', 'keywords', 'links']);
const STRING_FIELDS = ['id', 'kind', 'date', 'status', 'title', 'project'] as const;
// The loops below index Object.keys instead of iterating Object.entries: a first query (the
// index build) runs this code cold, where each for-of step allocates an iterator result and
// each entry a pair (~3 MB of the ~34 MB a 2,000-record build allocated, issue 22).

/**
 * One real YAML parser for every frontmatter read: flow or block lists, quoted values and
 * CRLF files all work. A record whose frontmatter cannot be read keeps its body and says why.
 */
export function parseRecord(text: string): ParsedRecord {
  // Most records have no BOM and no CR: skipping both regex passes then saves two copies.
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const normalized = unmarked.includes('\r') ? unmarked.replace(/\r\n?/g, '\n') : unmarked;
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)([\s\S]*)$/.exec(normalized);
  // The first closing fence is at or before the one matched: a block matched within a third
  // of the cap cannot be over it, so the fence is not searched for again (nearly every record).
  const oversized =
    match && (match[1] as string).length <= FRONTMATTER_MAX_BYTES / 3
      ? undefined
      : oversizedFrontmatter(normalized);
  if (oversized !== undefined) {
    const why = `${Math.ceil(oversized / 1024)} KiB, over the ${FRONTMATTER_MAX_BYTES / 1024} KiB limit`;
    return {
      fields: emptyFields(),
      body: '',
      errors: [
        `frontmatter is ${why}: it is not read, and the record is skipped by queries. Move long values into the body.`,
      ],
      unrepresentable: why,
    };
  }
  if (!match)
    return {
      fields: emptyFields(),
      body: normalized,
      errors: ['no frontmatter block (--- … ---) at the top'],
    };
  const fast = fastFrontmatter(match[1] as string);
  let data: unknown = fast;
  try {
    if (data === undefined) data = parseYaml(match[1] as string);
  } catch (error) {
    return {
      fields: emptyFields(),
      body: match[2] as string,
      errors: [`frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`],
    };
  }
  // The fast reader's output is plain already: copying it was ~10% of an index build.
  const plain =
    fast !== undefined && fastFrontmatterNodes(fast) <= MAX_NODES ? { value: fast } : plainFrontmatter(data);
  if ('unrepresentable' in plain) {
    const why = `frontmatter cannot be represented as data: ${plain.unrepresentable}; the record is skipped by queries`;
    return {
      fields: emptyFields(),
      body: match[2] as string,
      errors: [why],
      unrepresentable: plain.unrepresentable,
    };
  }
  data = plain.value;
  if (!data || typeof data !== 'object' || Array.isArray(data))
    return { fields: emptyFields(), body: match[2] as string, errors: ['frontmatter is not a map of keys'] };
  const record = data as Record<string, unknown>;
  const links: Record<string, string[]> = {};
  const errors: string[] = [];
  if (record.links !== undefined && record.links !== null) {
    if (typeof record.links === 'object' && !Array.isArray(record.links)) {
      const linkMap = record.links as Record<string, unknown>;
      const stores = Object.keys(linkMap);
      for (let index = 0; index < stores.length; index++) {
        const store = stores[index] as string;
        links[store] = asList(linkMap[store]);
      }
    } else {
      errors.push('links is not a map of store → ids');
    }
  }
  const extra: Record<string, unknown> = {};
  // Security: defineProperty, so a `__proto__` key stays data and never becomes a prototype.
  const keys = Object.keys(record);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (!KNOWN.has(key))
      Object.defineProperty(extra, key, {
        value: record[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  const fields: RecordFields = { keywords: asList(record.keywords), links, extra };
  for (let index = 0; index < STRING_FIELDS.length; index++) {
    const key = STRING_FIELDS[index] as (typeof STRING_FIELDS)[number];
    const value = asString(record[key]);
    if (value !== undefined) fields[key] = value;
  }
  return { fields, body: match[2] as string, errors };
}
