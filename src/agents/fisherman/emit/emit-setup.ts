import { singular } from '../../../core/type-words.js';
import type { CreatedNode } from '../recipes/created-tree.js';
import { commentText, jsIdentifier, jsKey, jsString, jsValue } from './source-text.js';

const TITLE_FIELDS = /^(title|name|label|subject|heading|summary)$/i;

/** One prepared item with its links, as `--emit json` writes it. */
export interface EmittedItem {
  ref: string;
  type: string;
  id: string;
  title?: string;
  /** The resource URL path. */
  path: string;
  request: { method: string; path: string; body: Record<string, unknown> };
  parent?: { ref: string; via: 'path' | 'body'; field?: string };
  children: string[];
}

/** `suite1`, `test1`, `test2`…: a stable identifier per item, numbered per type, never two alike (`item1` + `1`). */
export function itemRefs(tree: CreatedNode[]): string[] {
  const counts = new Map<string, number>();
  const used = new Set<string>();
  return tree.map((node) => {
    const base = singular(node.type)
      .replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase())
      .replace(/[^A-Za-z0-9]/g, '');
    const safe = /^[A-Za-z_]/.test(base) ? base : `item${base}`;
    let count = counts.get(safe) ?? 0;
    let ref: string;
    do {
      count++;
      ref = `${safe}${count}`;
    } while (used.has(ref));
    counts.set(safe, count);
    used.add(ref);
    return jsIdentifier(ref);
  });
}

/** The items of a run with parent/child links, for `--emit json`. */
export function emitJson(tree: CreatedNode[], meta: { runId: string; baseUrl: string }): string {
  const refs = itemRefs(tree);
  const items: EmittedItem[] = tree.map((node, index) => {
    const parent = node.parent;
    return {
      ref: refs[index] as string,
      type: singular(node.type),
      id: node.id,
      ...(node.title !== undefined ? { title: node.title } : {}),
      path: node.key,
      request: { method: node.method, path: node.path, body: node.body },
      ...(parent
        ? {
            parent: {
              ref: refs[parent.index] as string,
              via: parent.link.kind,
              ...(parent.link.kind === 'body' ? { field: parent.link.field } : {}),
            },
          }
        : {}),
      children: tree.flatMap((child, at) => (child.parent?.index === index ? [refs[at] as string] : [])),
    };
  });
  // JSON allows U+2028/U+2029 raw; escaped anyway, so the file is also safe to paste into source.
  return `${JSON.stringify({ run: meta.runId, baseUrl: meta.baseUrl, items }, null, 2).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`)}\n`;
}

/** A string whose run marker becomes the fixture's own marker at run time. */
function titleExpression(value: string, marker: string): string {
  if (!marker || !value.includes(marker)) return jsString(value);
  return value
    .split(marker)
    .map((part) => jsString(part))
    .join(' + marker + ');
}

function bodyExpression(node: CreatedNode, refs: string[], marker: string): string {
  const link = node.parent?.link;
  const fields = Object.entries(node.body).map(([field, value]) => {
    const key = jsKey(field);
    if (link?.kind === 'body' && link.field === field) {
      const ref = refs[node.parent?.index as number] as string;
      return `${key}: ${link.numeric ? `Number(${ref}.id)` : `${ref}.id`}`;
    }
    if (typeof value === 'string' && TITLE_FIELDS.test(field))
      return `${key}: ${titleExpression(value, marker)}`;
    return `${key}: ${jsValue(value)}`;
  });
  return `{ ${fields.join(', ')} }`;
}

function pathExpression(node: CreatedNode, refs: string[]): string {
  const link = node.parent?.link;
  if (link?.kind !== 'path') return jsString(node.path);
  const segments = node.path.split('/');
  const ref = refs[node.parent?.index as number] as string;
  const before = segments.slice(0, link.index + 1).join('/');
  const after = segments.slice(link.index + 2).join('/');
  return `${jsString(`${before}/`)} + encodeURIComponent(${ref}.id)${after ? ` + ${jsString(`/${after}`)}` : ''}`;
}

/**
 * A Playwright fixture module that recreates a run's data through the API: `prepare`
 * creates parents before children with the new ids threaded through (fresh titles each
 * time), `cleanup` deletes children first. It is typed against a minimal structural
 * request type, so Playwright's APIRequestContext (`request` fixture or
 * `request.newContext()`) fits without importing @playwright/test.
 */
export function emitPlaywright(
  tree: CreatedNode[],
  meta: { runId: string; baseUrl: string; marker: string },
): string {
  const refs = itemRefs(tree);
  const creates = tree.map(
    (node, index) =>
      `    const ${refs[index]} = await create(${pathExpression(node, refs)}, ${bodyExpression(node, refs, meta.marker)}, ${jsString(singular(node.type))});`,
  );
  const fields = refs.map((ref) => `  ${ref}: PreparedItem;`);
  const returned = refs.length > 0 ? `{ ${refs.join(', ')} }` : '{}';
  // The run id and base URL are untrusted (a spec's servers[0].url): one escaped line each, never raw.
  return `// Generated by \`tally fish\` from run ${commentText(meta.runId)} against ${commentText(meta.baseUrl)}.
// Recreates the same data through the app's API: parents before children, ids threaded
// through, fresh titles on every run; cleanup deletes children first.
//
// With @playwright/test:
//   const test = base.extend<{ data: Prepared }>({
//     data: async ({ request }, use) => {
//       const data = await prepare(request, { headers: { 'x-csrf-token': token } });
//       await use(data);
//       await cleanup(request, data, { headers: { 'x-csrf-token': token } });
//     },
//   });

export interface ApiResponseLike {
  ok(): boolean;
  status(): number;
  headers(): Record<string, string>;
  text(): Promise<string>;
}

export interface ApiRequestLike {
  post(url: string, options?: { data?: unknown; headers?: Record<string, string> }): Promise<ApiResponseLike>;
  delete(url: string, options?: { headers?: Record<string, string> }): Promise<ApiResponseLike>;
}

export interface PreparedItem {
  type: string;
  id: string;
  /** The resource's URL path, which cleanup deletes. */
  path: string;
}

export interface Prepared {
${fields.join('\n')}
}

export interface FixtureOptions {
  /** Headers every request needs besides the context's own (a CSRF token, an API key). */
  headers?: Record<string, string>;
  /** Stamped into titles; a fresh one by default so repeated runs never collide. */
  marker?: string;
}

function idOf(text: string, location: string | undefined): string {
  const body: unknown = text ? JSON.parse(text) : undefined;
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const data = record.data && typeof record.data === 'object' ? (record.data as Record<string, unknown>) : record;
  for (const key of ['id', '_id', 'uuid']) {
    const value = data[key] ?? record[key];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  const fromLocation = location?.split('?')[0]?.split('/').filter(Boolean).at(-1);
  if (fromLocation) return decodeURIComponent(fromLocation);
  throw new Error('The create response carried no id (id, _id, uuid, data.id or a Location header).');
}

async function remove(request: ApiRequestLike, items: PreparedItem[], headers: Record<string, string>): Promise<void> {
  for (const item of [...items].reverse()) {
    const response = await request.delete(item.path, { headers });
    if (!response.ok() && response.status() !== 404 && response.status() !== 410)
      throw new Error(\`DELETE \${item.path} → \${response.status()}: \${await response.text()}\`);
  }
}

export async function prepare(request: ApiRequestLike, options: FixtureOptions = {}): Promise<Prepared> {
  const marker = options.marker ?? Math.random().toString(16).slice(2, 8);
  const headers = options.headers ?? {};
  const made: PreparedItem[] = [];
  const create = async (path: string, data: Record<string, unknown>, type: string): Promise<PreparedItem> => {
    const response = await request.post(path, { data, headers });
    const text = await response.text();
    if (!response.ok()) throw new Error(\`POST \${path} → \${response.status()}: \${text}\`);
    const id = idOf(text, response.headers().location);
    const item = { type, id, path: \`\${path.split('?')[0]}/\${encodeURIComponent(id)}\` };
    made.push(item);
    return item;
  };
  try {
${creates.join('\n')}
    return ${returned};
  } catch (error) {
    // Leave nothing half-made behind: what was created is deleted, children first.
    await remove(request, made, headers);
    throw error;
  }
}

export async function cleanup(request: ApiRequestLike, prepared: Prepared, options: FixtureOptions = {}): Promise<void> {
  await remove(request, [${refs.map((ref) => `prepared.${ref}`).join(', ')}], options.headers ?? {});
}
`;
}
