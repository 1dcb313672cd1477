import type { Capture } from '../captures/capture.js';
import { CaptureIndex } from '../endpoints/capture-index.js';
import type { Scope } from '../endpoints/scope.js';
import type { ApiSpecIndex } from './api-spec-index.js';

/**
 * The capture index, told the OpenAPI documents' templates: a path the documents describe
 * normalizes by its template (so `/api/alpha-shop/suites` is `/api/{id}/suites` even when
 * no capture showed that slug varying), and the endpoint list shows both sources. Paths the
 * captures already know keep the captures' normalization, so their ranked examples still match.
 */
export class SpecAwareIndex extends CaptureIndex {
  private readonly capturedPatterns = new Set<string>();

  constructor(
    captures: Capture[],
    readonly spec: ApiSpecIndex,
    /** The base URL's path (`/v2`): spec paths are relative to it, request paths include it. */
    readonly basePath = '',
  ) {
    super(captures);
    for (const capture of captures) {
      const segments = this.normalizer.segments(capture.path);
      for (let length = 1; length <= segments.length; length++)
        this.capturedPatterns.add(`/${segments.slice(0, length).join('/')}`);
    }
  }

  override normalize(path: string): string {
    const learned = super.normalize(path);
    if (this.capturedPatterns.has(learned)) return learned;
    const bare = path.split('?')[0] ?? path;
    const prefix = this.basePath.replace(/\/+$/, '');
    if (prefix && bare.startsWith(`${prefix}/`)) {
      const pattern = this.spec.normalize(bare.slice(prefix.length));
      if (pattern) return `${prefix}${pattern}`;
    }
    return this.spec.normalize(bare) ?? learned;
  }

  override endpointLines(scope?: Scope): string[] {
    const captured = super.endpointLines(scope);
    const specPatterns = new Set(
      this.spec.operations.map((operation) => `${operation.method} ${operation.pattern}`),
    );
    // A captured endpoint the documents also describe is listed once, by its template.
    const extra = captured.filter((line) => !specPatterns.has(line.split('?')[0] as string));
    return [...this.spec.endpointLines(), ...extra];
  }
}
