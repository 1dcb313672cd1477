import { decodePercent } from '../../../core/percent-decoding.js';
import { WRITE_METHODS } from '../captures/capture.js';
import { splitPath } from '../endpoints/id-shape.js';
import type { ApiOperation, ApiSpecSet } from './api-operation.js';

const isParameter = (segment: string) => segment.includes('{');

/** How well a concrete path or a pattern fits a template: literal matches count, undefined if it does not fit. */
function matchScore(template: string[], path: string[]): number | undefined {
  if (template.length !== path.length) return undefined;
  let score = 0;
  for (let at = 0; at < template.length; at++) {
    const expected = template[at] as string;
    const actual = path[at] as string;
    if (isParameter(expected)) {
      if (actual === '') return undefined;
      continue;
    }
    if (decodePercent(actual) !== expected) return undefined;
    score++;
  }
  return score;
}

/**
 * The endpoint model of one or more OpenAPI documents, every one of them: operations by
 * method and template, matched against concrete paths (`/pets/42/visits`), `{id}` patterns
 * or the templates themselves. Where two documents declare the same operation, the first wins.
 */
export class ApiSpecIndex {
  readonly operations: ApiOperation[];

  constructor(readonly set: ApiSpecSet) {
    const seen = new Set<string>();
    this.operations = set.operations.filter((operation) => {
      const key = `${operation.method} ${operation.pattern}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** The operation for this method (never another method's at the same path); literals beat parameters. */
  operation(method: string, path: string): ApiOperation | undefined {
    return this.best(path, (operation) => operation.method === method.toUpperCase());
  }

  /** The `{id}` pattern of a path the documents describe, whatever the method; undefined if none does. */
  normalize(path: string): string | undefined {
    return this.best(path, () => true)?.pattern;
  }

  /** One `METHOD /template` line per operation, writes first; reads carry their query parameter names. */
  endpointLines(): string[] {
    const rank = (operation: ApiOperation) => (WRITE_METHODS.has(operation.method) ? 0 : 1);
    return [...this.operations]
      .sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
      .map((operation) => {
        const query = operation.parameters.filter((parameter) => parameter.in === 'query');
        return operation.method === 'GET' && query.length > 0
          ? `GET ${operation.path}?${query.map((parameter) => parameter.name).join('&')}`
          : `${operation.method} ${operation.path}`;
      });
  }

  private best(path: string, accept: (operation: ApiOperation) => boolean): ApiOperation | undefined {
    const segments = splitPath(path.split('?')[0] ?? path);
    let best: { operation: ApiOperation; score: number } | undefined;
    for (const operation of this.operations) {
      if (!accept(operation)) continue;
      const score = matchScore(splitPath(operation.path), segments);
      if (score !== undefined && (!best || score > best.score)) best = { operation, score };
    }
    return best?.operation;
  }
}
