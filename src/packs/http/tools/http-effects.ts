import type { Effect } from '../../../core/effects.js';
import { singular, spelledAsWords } from '../../../core/type-words.js';
import { type ApiResponse, canonicalPath, listOf } from '../client/api-client.js';
import { extractIds } from '../client/extract-ids.js';
import { isStrongId } from '../endpoints/id-shape.js';
import { ID } from '../endpoints/path-normalizer.js';
import { linkedName } from '../link-field.js';
import { requestIntent } from './request-intent.js';

/** At most this many items of a list read become `read` effects. */
const LIST_READS = 500;
const TITLE_FIELDS = ['title', 'name', 'label', 'subject', 'heading', 'summary'];

type Normalize = (path: string) => string;

export function unwrap(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const data = record.data;
  return data && typeof data === 'object' && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : record;
}

export function titleOf(...sources: (Record<string, unknown> | undefined)[]): string | undefined {
  for (const source of sources)
    for (const field of TITLE_FIELDS) if (typeof source?.[field] === 'string') return source[field] as string;
  return undefined;
}

const OWN_ID = /^(id|_id|uuid)$/i;

/**
 * Fields that may name another resource: `postId`, `suite_id`, or an id-shaped value under a
 * plain name (`"post": 1`, as Django REST writes a foreign key), as the server answered them.
 * Which one names the parent is decided later, by the field's name.
 */
function linksOf(...sources: (Record<string, unknown> | undefined)[]): Record<string, string> {
  const links: Record<string, string> = {};
  // Last source first, so the server's value wins. Indexed loops over Object.keys rather than
  // `for (const [field, value] of Object.entries(…))`: this runs once per create, and V8's
  // optimizing compiler spent 17–35 ms of background CPU per 220-create run on the iterator
  // and destructuring version (issue 22; `--trace-opt`).
  for (let at = sources.length - 1; at >= 0; at--) {
    const source = sources[at];
    if (!source) continue;
    const fields = Object.keys(source);
    for (let index = 0; index < fields.length; index++) {
      const field = fields[index] as string;
      const value = source[field];
      if (OWN_ID.test(field)) continue;
      // A relation answered as the object itself (`"post": {"id": 1, …}`, as serializers that
      // embed it write): its own id is the link.
      const nestedId = embeddedId(value);
      if (nestedId !== undefined) {
        links[field] = nestedId;
        continue;
      }
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      if (linkedName(field) !== undefined || isStrongId(String(value))) links[field] = String(value);
    }
  }
  return links;
}

/** The own id of an embedded object (`{id: 1, title: …}`); undefined for anything else. */
function embeddedId(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const id = record.id ?? record._id ?? record.uuid;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

interface Shape {
  segments: string[];
  dynamic: boolean[];
}

function shapeOf(path: string, normalize: Normalize): Shape {
  const segments = path.split('/').filter(Boolean);
  const pattern = normalize(path).split('/').filter(Boolean);
  return { segments, dynamic: segments.map((_segment, index) => pattern[index] === ID) };
}

const join = (segments: string[]) => `/${segments.join('/')}`;

/** The resource type of a path: its last literal segment, singular (`/api/{id}/suites/101` → suite). */
function typeAt(shape: Shape, end: number): string | undefined {
  for (let index = end - 1; index >= 0; index--)
    if (!shape.dynamic[index]) return singular(decodeURIComponent(shape.segments[index] as string));
  return undefined;
}

/** Paths of the resources a path sits under (`/api/alpha-shop/suites/101/tests` → `/api/alpha-shop`, `…/suites/101`). */
function parentsOf(shape: Shape, end: number): string[] {
  const parents: string[] = [];
  for (let index = 0; index < end; index++)
    if (shape.dynamic[index]) parents.push(join(shape.segments.slice(0, index + 1)));
  return parents;
}

function resource(
  kind: Effect['kind'],
  shape: Shape,
  end: number,
  observed: Record<string, unknown>,
  extra: Partial<Effect> = {},
): Effect {
  const type = typeAt(shape, end);
  const last = shape.segments[end - 1];
  return {
    kind,
    space: 'http',
    key: join(shape.segments.slice(0, end)),
    ...(shape.dynamic[end - 1] && last !== undefined ? { id: decodeURIComponent(last) } : {}),
    ...(type ? { type } : {}),
    observed,
    ...extra,
  };
}

/**
 * What one HTTP exchange did, as effects on resources keyed by their URL path on the
 * locked origin: a create is the collection plus the id the server returned; an action
 * (`POST …/suites/101/move`) updates the resource it acts on; a POST answered 2xx but not
 * 201 with the id of a resource this run already saw existing (`response.before`) updates it —
 * an upsert or get-or-create made nothing; a read of a list reads each listed item; a read
 * that finds a lost create again (`response.reconciled`) is that create. A failed exchange
 * has no effects.
 */
export function httpEffects(
  response: ApiResponse,
  requestBody: unknown,
  normalize: Normalize,
  marker?: string,
): Effect[] {
  if (!response.ok) return [];
  const path = canonicalPath(response.path);
  const shape = shapeOf(path, normalize);
  const end = shape.segments.length;
  const item = unwrap(response.body);
  const sent = unwrap(requestBody);
  const observed = (source: Record<string, unknown> | undefined, fallback?: Record<string, unknown>) => {
    const title = titleOf(source, fallback);
    // Links from the server's answer only: a `postId` Tally sent and the app dropped links nothing.
    const links = linksOf(source);
    // The run's marker ends the title: a claim may name the resource without it.
    const marked = marker && title?.trimEnd().endsWith(marker);
    return {
      status: response.status,
      ...(title !== undefined ? { title } : {}),
      ...(marked ? { titleMarker: marker } : {}),
      ...(Object.keys(links).length > 0 ? { links } : {}),
    };
  };
  switch (response.method) {
    case 'GET': {
      const effects: Effect[] = [];
      // A lost create found again is this run's create, not something that existed before it.
      const found = new Set<string>();
      for (const lost of response.reconciled ?? []) {
        const foundShape = shapeOf(lost.path, normalize);
        const last = foundShape.segments.length;
        foundShape.dynamic[last - 1] = true;
        const effect = resource(
          'created',
          foundShape,
          last,
          { ...observed(lost.item), parents: parentsOf(foundShape, last - 1) },
          {
            reconciledFrom: `${lost.lostVia} (${lost.lost.why})`,
            recovers: {
              tool: 'request',
              intent: requestIntent('POST', lost.lost.requestPath, lost.lost.body) as string,
            },
          },
        );
        found.add(effect.key);
        effects.push(effect);
      }
      const list = listOf(response.body);
      if (list && !shape.dynamic[end - 1]) {
        for (const entry of list.slice(0, LIST_READS)) {
          const id = extractIds(entry, undefined)[0];
          if (id === undefined) continue;
          const itemShape = {
            segments: [...shape.segments, encodeURIComponent(id)],
            dynamic: [...shape.dynamic, true],
          };
          if (!found.has(join(itemShape.segments)))
            effects.push(resource('read', itemShape, end + 1, observed(entry)));
        }
      } else if (!found.has(path)) {
        effects.push(resource('read', shape, end, observed(item)));
      }
      return effects;
    }
    case 'POST': {
      const id = response.ids[0];
      const last = shape.dynamic[end - 1] ? undefined : decodeURIComponent(shape.segments[end - 1] ?? '');
      // A plural noun (`/posts/1/comments`) or 201 Created is a collection; a verb (`…/101/move`) is an action.
      const collection =
        response.status === 201 || (last !== undefined && singular(last) !== spelledAsWords(last));
      if (id !== undefined) {
        const at = shape.segments.findIndex(
          (segment, index) => shape.dynamic[index] && decodeURIComponent(segment) === id,
        );
        // The id of a resource already in the path, returned by an action on it: not a new resource.
        if (at >= 0 && !collection) return [resource('updated', shape, at + 1, observed(item, sent))];
        const created = {
          segments: [...shape.segments, encodeURIComponent(id)],
          dynamic: [...shape.dynamic, true],
        };
        // Get-or-create / upsert: a 2xx other than 201 naming a resource this run already saw
        // existing changed it, it did not make it. 201 is the server's own word for "made".
        if (response.before === 'existing' && response.status !== 201)
          return [
            resource('updated', created, end + 1, {
              ...observed(item, sent),
              parents: parentsOf(shape, end),
              existed: 'seen earlier in this run',
            }),
          ];
        return [
          resource('created', created, end + 1, { ...observed(item, sent), parents: parentsOf(shape, end) }),
        ];
      }
      const lastId = shape.dynamic.lastIndexOf(true);
      return lastId >= 0 && !collection
        ? [resource('updated', shape, lastId + 1, observed(undefined, sent))]
        : [];
    }
    case 'PUT':
    case 'PATCH': {
      const kind = response.method === 'PUT' && response.status === 201 ? 'created' : 'updated';
      return [resource(kind, shape, end, { ...observed(item, sent), parents: parentsOf(shape, end - 1) })];
    }
    case 'DELETE':
      return [resource('deleted', shape, end, { status: response.status })];
    default:
      return [];
  }
}
