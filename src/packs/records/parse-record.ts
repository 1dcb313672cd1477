import { createRequire } from 'node:module';
import { fastFrontmatter } from './fast-frontmatter.js';
import { plainFrontmatter } from './plain-frontmatter.js';

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
  if (Array.isArray(value))
    return value
      .map(asString)
      .filter((item): item is string => item !== undefined && item.trim() !== '')
      .map((item) => item.trim());
  const text = asString(value);
  return text
    ? text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : [];
}

const KNOWN = new Set(['id', 'kind', 'date', 'status', 'title', 'project', 'keywords', 'links']);

/**
 * One real YAML parser for every frontmatter read: flow or block lists, quoted values and
 * CRLF files all work. A record whose frontmatter cannot be read keeps its body and says why.
 */
export function parseRecord(text: string): ParsedRecord {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)([\s\S]*)$/.exec(normalized);
  const empty: RecordFields = { keywords: [], links: {}, extra: {} };
  if (!match)
    return { fields: empty, body: normalized, errors: ['no frontmatter block (--- … ---) at the top'] };
  let data: unknown = fastFrontmatter(match[1] as string);
  try {
    if (data === undefined) data = parseYaml(match[1] as string);
  } catch (error) {
    return {
      fields: empty,
      body: match[2] as string,
      errors: [`frontmatter is not valid YAML: ${(error as Error).message.split('\n')[0]}`],
    };
  }
  const plain = plainFrontmatter(data);
  if ('unrepresentable' in plain) {
    const why = `frontmatter cannot be represented as data: ${plain.unrepresentable}; the record is skipped by queries`;
    return { fields: empty, body: match[2] as string, errors: [why], unrepresentable: plain.unrepresentable };
  }
  data = plain.value;
  if (!data || typeof data !== 'object' || Array.isArray(data))
    return { fields: empty, body: match[2] as string, errors: ['frontmatter is not a map of keys'] };
  const record = data as Record<string, unknown>;
  const links: Record<string, string[]> = {};
  const errors: string[] = [];
  if (record.links !== undefined && record.links !== null) {
    if (typeof record.links === 'object' && !Array.isArray(record.links)) {
      for (const [store, ids] of Object.entries(record.links as Record<string, unknown>))
        links[store] = asList(ids);
    } else {
      errors.push('links is not a map of store → ids');
    }
  }
  const extra: Record<string, unknown> = {};
  // Security: defineProperty, so a `__proto__` key stays data and never becomes a prototype.
  for (const [key, value] of Object.entries(record))
    if (!KNOWN.has(key))
      Object.defineProperty(extra, key, { value, enumerable: true, writable: true, configurable: true });
  const fields: RecordFields = { keywords: asList(record.keywords), links, extra };
  for (const key of ['id', 'kind', 'date', 'status', 'title', 'project'] as const) {
    const value = asString(record[key]);
    if (value !== undefined) fields[key] = value;
  }
  return { fields, body: match[2] as string, errors };
}
