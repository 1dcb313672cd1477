import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml, YAMLError } from 'yaml';
import { errorMessage, TallyError } from '../../../core/errors.js';
import { parseFailure } from '../../../core/parse-error-place.js';
import { scrubSecretShapes } from '../../../core/secret-shapes.js';
import { shownUrl } from '../../../core/shown-url.js';
import { ServerUnreachableError, unreachableCode } from '../client/network-failure.js';
import type { ApiSpecSet } from './api-operation.js';
import { operationsOf } from './operations-of.js';
import { SCHEMA_NAME } from './single-object-schema.js';

export class ApiSpecError extends TallyError {}

const isUrl = (source: string) => /^https?:\/\//i.test(source);
const FETCH_TIMEOUT_MS = 15_000;
const MAX_BYTES = 20 * 1024 * 1024;

/**
 * A document the user named by URL, fetched by us (the resolver's own http client refuses
 * 127.0.0.1, where a dev server usually is). JSON or YAML; `yaml` reads both.
 */
async function fetchDocument(url: string): Promise<object> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (!response.ok) throw new Error(`GET ${shownUrl(url)} answered ${response.status}`);
  const text = await response.text();
  if (text.length > MAX_BYTES) throw new Error(`the document is larger than ${MAX_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { logLevel: 'error' });
  } catch (error) {
    if (!(error instanceof YAMLError)) throw error;
    // Security: the parser's message quotes the lines around the fault; a document may hold a token.
    throw new Error(`the document is ${parseFailure('JSON or YAML', error)}`);
  }
  if (!parsed || typeof parsed !== 'object') throw new Error('the response is not a JSON or YAML object');
  return parsed;
}

/**
 * Security: `source` as an error may show it (`shownUrl`), and `text` (a fetch failure quotes the
 * URL: undici refuses one with credentials by printing it) with the URL's credentials masked.
 */
function shownSource(source: string, text = source): string {
  if (!isUrl(source)) return text;
  return scrubSecretShapes(
    text.split(source).join(shownUrl(source)),
    () => '***',
    () => '***',
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Writes each named schema's name into it (`x-tally-schema: Cat`) before `$ref`s are
 * resolved, when resolving loses names: a discriminator's implicit mapping selects an
 * option by its schema's name.
 */
function nameSchemas(document: unknown): void {
  if (!isObject(document)) return;
  const components = isObject(document.components) ? document.components.schemas : undefined;
  for (const named of [components, document.definitions]) {
    if (!isObject(named)) continue;
    for (const [name, schema] of Object.entries(named))
      if (isObject(schema) && schema[SCHEMA_NAME] === undefined) schema[SCHEMA_NAME] = name;
  }
}

/**
 * A relative `servers` URL (`/`, `/v2`) of a document fetched from a URL is relative to where
 * the document is served (OpenAPI 3): resolved here, port included — the resolver's own fix
 * drops the port (`http://127.0.0.1/` for a document on `:4000`).
 */
function absoluteServers(document: unknown, source: string): void {
  if (!isObject(document) || !Array.isArray(document.servers)) return;
  for (const server of document.servers)
    if (isObject(server) && typeof server.url === 'string' && !/^[a-z][a-z0-9+.-]*:|^\{/i.test(server.url))
      server.url = new URL(server.url, source).href;
}

/** The first `$ref` that names another document (not `#/…`), and where it stands, walked without recursion. */
function externalRef(document: object): { ref: string; at: string } | undefined {
  const pending: [unknown, string][] = [[document, '#']];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const [value, at] = pending.pop() as [unknown, string];
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !ref.startsWith('#')) return { ref, at };
    for (const [key, child] of Object.entries(value).reverse())
      pending.push([child, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
  }
  return undefined;
}

/**
 * Security: a document fetched from a URL resolves only its internal `$ref`s — it cannot
 * make Tally read local files or fetch other URLs. A local file resolves files next to it
 * (and public URLs, through the resolver's safe-URL check).
 */
async function dereference(source: string): Promise<Record<string, unknown>> {
  // A fresh parser per document: `$ref` caches never leak from one spec into another.
  if (isUrl(source)) {
    const fetched = await fetchDocument(source);
    // Left unresolved, such a `$ref` read as an empty schema and every body was sent as `{}`.
    const external = externalRef(fetched);
    if (external) {
      const ref = scrubSecretShapes(
        external.ref,
        () => '***',
        () => '***',
      );
      throw new ApiSpecError(
        'SPEC_UNREADABLE',
        `Cannot read the OpenAPI document ${shownSource(source)}: its $ref "${ref}" at ${external.at} names another document, and a document read from a URL resolves only its own #/ references (it cannot make Tally fetch other URLs or read files). Save the documents in one folder and pass the file as --spec.`,
        { source: shownSource(source), ref, at: external.at },
      );
    }
    nameSchemas(fetched);
    absoluteServers(fetched, source);
    const document = await new SwaggerParser().dereference(source, fetched as never, {
      resolve: { external: false },
    });
    return document as unknown as Record<string, unknown>;
  }
  const parsed = await new SwaggerParser().parse(resolve(source));
  nameSchemas(parsed);
  const document = await new SwaggerParser().dereference(resolve(source), parsed, {});
  return document as unknown as Record<string, unknown>;
}

/**
 * The resolver's words for a failure, but for a file it could not parse (the document or one its
 * `$ref`s name): Security: its message quotes the lines around the fault, where a token may
 * stand; only the file and the position are told.
 */
function readFailure(error: unknown): string {
  const parser = error as { name?: unknown; source?: unknown };
  if (parser?.name !== 'ParserError') return errorMessage(error);
  const file =
    typeof parser.source === 'string' ? parser.source.replace(/^file:\/\//, '') : 'a file it names';
  return `${file} is ${parseFailure('JSON or YAML', error)}`;
}

/**
 * Reads every OpenAPI 3.x / Swagger 2.0 document (JSON or YAML, files or URLs), resolving
 * `$ref`s across files. Dereferenced schemas keep cycles as object cycles: whatever reads
 * them must track the objects it is inside (see `summarizeSchema`, `sampleValue`).
 */
export async function loadApiSpecs(sources: string[]): Promise<ApiSpecSet> {
  const set: ApiSpecSet = { sources: [], operations: [], servers: [] };
  for (const source of sources) {
    const location = isUrl(source) ? source : resolve(source);
    let document: Record<string, unknown>;
    try {
      document = await dereference(source);
    } catch (error) {
      if (error instanceof ApiSpecError) throw error;
      const unreachable = isUrl(source) ? unreachableCode(error) : undefined;
      if (unreachable)
        throw new ServerUnreachableError(
          'SERVER_UNREACHABLE',
          `Cannot reach ${new URL(source).origin} to read the OpenAPI document ${shownSource(source)} (${unreachable}). Check the --spec URL and that the server is running, or pass the document as a file.`,
          { source: shownSource(source), cause: unreachable },
        );
      throw new ApiSpecError(
        'SPEC_UNREADABLE',
        // swagger-parser spells it "Openapi".
        `Cannot read the OpenAPI document ${shownSource(source)}: ${shownSource(source, readFailure(error)).replace(/\bOpenapi\b/g, 'OpenAPI')}. Pass an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML) as --spec, a readable file or an http(s) URL.`,
        { source: shownSource(source) },
      );
    }
    const { operations, servers } = operationsOf(document, location);
    set.sources.push(location);
    set.operations.push(...operations);
    set.servers.push(...servers);
  }
  if (set.operations.length === 0)
    throw new ApiSpecError(
      'SPEC_EMPTY',
      `The OpenAPI documents (${sources.join(', ')}) declare no operations. Pass the document that describes the API's paths.`,
      { sources },
    );
  return set;
}
