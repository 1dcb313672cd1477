import { type Capture, WRITE_METHODS } from '../captures/capture.js';
import { extractIds } from '../client/extract-ids.js';
import { collateAscii } from './collate-ascii.js';
import { splitPath } from './id-shape.js';
import { PathNormalizer, resourceOf } from './path-normalizer.js';
import { inScope, type Scope } from './scope.js';

export interface Endpoint {
  method: string;
  pattern: string;
  resource?: string;
  queryNames: string[];
  /** Captures of this exact endpoint, best example first. */
  examples: Capture[];
}

interface Candidate {
  capture: Capture;
  extraDepth: number;
}

// Timestamps are normalized ISO strings (buildCapture), so code-unit order is time order.
// localeCompare would give the same order but its first call sets up an ICU collator: ~20 ms
// of every `tally fish` start (issue 22).
const newer = (a: Capture, b: Capture) => {
  const left = a.timestamp ?? '';
  const right = b.timestamp ?? '';
  return left < right ? -1 : left > right ? 1 : 0;
};

/** Exact segment count first, then success over rejection, then the newest. */
function compareCandidates(a: Candidate, b: Candidate): number {
  if (a.extraDepth !== b.extraDepth) return a.extraDepth - b.extraDepth;
  const aOk = a.capture.status < 400;
  const bOk = b.capture.status < 400;
  if (aOk !== bOk) return aOk ? -1 : 1;
  return newer(b.capture, a.capture);
}

/** A POST answered with an id that is not its own last segment: it made something at a collection. */
function createdHere(capture: Capture): boolean {
  if (capture.method !== 'POST' || capture.status >= 400) return false;
  const last = splitPath(capture.path).at(-1);
  const ids = extractIds(capture.responseBody, capture.responseHeaders.location, last);
  return ids.length > 0 && !ids.includes(last as string);
}

/**
 * The endpoint model over a capture set: normalized endpoints, scoped lists, and ranked
 * example lookup. Every prefix of every capture is indexed once, so a lookup is a map read.
 */
export class CaptureIndex {
  readonly normalizer: PathNormalizer;
  private readonly byPrefix = new Map<string, Candidate[]>();
  private readonly endpointMap = new Map<string, Endpoint>();

  constructor(readonly captures: Capture[]) {
    this.normalizer = new PathNormalizer(
      captures.map((capture) => capture.path),
      captures.filter(createdHere).map((capture) => capture.path),
    );
    for (const capture of captures) {
      const segments = this.normalizer.segments(capture.path);
      for (let length = 1; length <= segments.length; length++) {
        const key = `${capture.method} /${segments.slice(0, length).join('/')}`;
        const list = this.byPrefix.get(key) ?? [];
        list.push({ capture, extraDepth: segments.length - length });
        this.byPrefix.set(key, list);
      }
      const pattern = `/${segments.join('/')}`;
      const endpointKey = `${capture.method} ${pattern}`;
      const endpoint = this.endpointMap.get(endpointKey) ?? {
        method: capture.method,
        pattern,
        ...(resourceOf(pattern) ? { resource: resourceOf(pattern) as string } : {}),
        queryNames: [],
        examples: [],
      };
      endpoint.examples.push(capture);
      for (const name of Object.keys(capture.query))
        if (!endpoint.queryNames.includes(name)) endpoint.queryNames.push(name);
      this.endpointMap.set(endpointKey, endpoint);
    }
    for (const list of this.byPrefix.values()) list.sort(compareCandidates);
    for (const endpoint of this.endpointMap.values()) {
      endpoint.examples = endpoint.examples
        .map((capture) => ({ capture, extraDepth: 0 }))
        .sort(compareCandidates)
        .map((candidate) => candidate.capture);
    }
  }

  normalize(path: string): string {
    return this.normalizer.normalize(path.split('?')[0] ?? path);
  }

  /**
   * The best captured example for a method and a path (a pattern or a concrete path).
   * Candidates start with the path at segment boundaries; in-scope captures win ties of depth.
   */
  example(method: string, path: string, scope?: Scope): Capture | undefined {
    const list = this.byPrefix.get(`${method.toUpperCase()} ${this.normalize(path)}`);
    if (!list || list.length === 0) return undefined;
    if (!scope?.key) return list[0]?.capture;
    const depth = (list[0] as Candidate).extraDepth;
    const sameDepth = list.filter((candidate) => candidate.extraDepth === depth);
    return (sameDepth.find((candidate) => inScope(candidate.capture, scope)) ?? list[0])?.capture;
  }

  endpoint(method: string, pattern: string): Endpoint | undefined {
    return this.endpointMap.get(`${method.toUpperCase()} ${this.normalize(pattern)}`);
  }

  /**
   * The resource names the captured endpoints know, each once, in no particular order: what a
   * membership test needs, without filtering or sorting every endpoint.
   */
  resources(): string[] {
    const names = new Set<string>();
    for (const endpoint of this.endpointMap.values()) if (endpoint.resource) names.add(endpoint.resource);
    return [...names];
  }

  /** Endpoints with at least one in-scope capture, writes first; deduplicated by pattern. */
  endpoints(scope?: Scope): Endpoint[] {
    const list = [...this.endpointMap.values()].filter(
      (endpoint) => !scope || endpoint.examples.some((capture) => inScope(capture, scope)),
    );
    const rank = (endpoint: Endpoint) => (WRITE_METHODS.has(endpoint.method) ? 0 : 1);
    return list.sort(
      (a, b) => rank(a) - rank(b) || collateAscii(a.pattern, b.pattern) || collateAscii(a.method, b.method),
    );
  }

  /** One `METHOD /pattern` line per endpoint; reads carry their query parameter names. */
  endpointLines(scope?: Scope): string[] {
    return this.endpoints(scope).map((endpoint) =>
      endpoint.method === 'GET' && endpoint.queryNames.length > 0
        ? `GET ${endpoint.pattern}?${endpoint.queryNames.join('&')}`
        : `${endpoint.method} ${endpoint.pattern}`,
    );
  }
}
