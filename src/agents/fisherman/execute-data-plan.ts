import type { PlanCall, PlanOutcome } from '../../core/agent/run-plan.js';
import type { Effect } from '../../core/effects.js';
import { freshenExample } from '../../packs/http/endpoints/freshen-example.js';
import { singular } from '../../packs/http/endpoints/resource-name.js';
import { linkStem } from '../../packs/http/link-field.js';
import type { UniqueToken } from '../../packs/http/openapi/sample-value.js';
import { countOf } from './fish-contract.js';
import type { FishermanFinish } from './fisherman-finish.js';
import type { ParentLink } from './planned-link.js';
import { type BoundedTask, runBounded } from './run-bounded.js';

/**
 * The body for one item: its label (title fields) and its token — the run's marker and the
 * item's number in the run — for values that must differ between items and runs (emails,
 * usernames, codes). A spec plan builds each item's body from the schema; without one the
 * example is replayed with a fresh title.
 */
export type FreshBody = (label: string, unique: UniqueToken) => Record<string, unknown>;

/** What execution needs of a plan: a captured plan, a recipe and a spec plan all have it. */
export interface ExecutableType {
  type: string;
  count: number;
  example: { path: string; requestBody?: unknown };
  fresh?: FreshBody;
}

export interface ExecutablePlan {
  parent: ExecutableType;
  child?: ExecutableType & { link: ParentLink };
  container?: {
    type: string;
    example: { path: string; requestBody?: unknown };
    fresh?: FreshBody;
    link: ParentLink;
    id?: string;
  };
}

export interface ExecuteOptions {
  /** Creates in flight at once (default 1); a child always waits for its parent. */
  concurrency?: number;
  /** Once aborted, no further create starts (those in flight settle). */
  signal?: AbortSignal;
}

function freshBody(
  step: { example: { requestBody?: unknown }; fresh?: FreshBody },
  label: string,
  unique: UniqueToken,
): Record<string, unknown> {
  if (step.fresh) return step.fresh(label, unique);
  return freshenExample(step.example.requestBody, label, unique);
}

function linkTo(
  path: string,
  body: Record<string, unknown>,
  link: ParentLink,
  parentId: string,
): { path: string; body: Record<string, unknown> } {
  if (link.kind === 'body')
    return {
      path,
      // A parent id past 2^53 stays its exact digits: as a number it would name another parent.
      body: {
        ...body,
        [link.field]:
          link.numeric && /^\d+$/.test(parentId) && Number.isSafeInteger(Number(parentId))
            ? Number(parentId)
            : parentId,
      },
    };
  const segments = path.split('/');
  // Path segments as split here start with '' for the leading slash.
  segments[link.index + 1] = encodeURIComponent(parentId);
  return { path: segments.join('/'), body };
}

/** `an account`, `a user`, `an upload`, `a unit`: the article a reader expects before a type. */
const withArticle = (word: string) => `${/^([aeio]|u(?!s|ni|ti|ri))/i.test(word) ? 'an' : 'a'} ${word}`;

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface RequestResult {
  status?: number;
  ids?: string[];
  message?: string;
  found?: { id: string; marked: Record<string, string> }[];
}

type Record_ = Awaited<ReturnType<PlanCall>>;

/** `POST /items/articles → 403: You don't have permission…` — the status and the server's words. */
function failureOf(method: string, path: string, record: Record_): string {
  const result = record.result as RequestResult | undefined;
  if (result?.status !== undefined)
    return `${method} ${path} → ${result.status}${result.message ? `: ${result.message}` : ''}`;
  return `${method} ${path} → ${record.error?.message ?? 'no response'}`;
}

/** The title a create's own answer gave the item `id`, if it gave one. */
function answeredTitle(record: Record_, id: string): string | undefined {
  const effects = (record.evidence?.effects ?? []) as Effect[];
  const created = effects.find((effect) => effect.kind === 'created' && effect.id === id);
  const title = (created?.observed as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' ? title : undefined;
}

/** Ids of the items a successful list read saw directly under `collection`. */
function listedIds(record: Record_, collection: string): string[] {
  const effects = (record.evidence?.effects ?? []) as Effect[];
  return effects
    .filter(
      (effect) =>
        effect.kind === 'read' && effect.id !== undefined && effect.key === `${collection}/${effect.id}`,
    )
    .map((effect) => effect.id as string);
}

type Item = FishermanFinish['created'][number];

/**
 * One request per entity: replay each example with fresh titles stamped with the run's
 * marker, parents before children, children linked to the ids their parents' responses
 * returned, at most `concurrency` creates in flight. A create whose response was lost is
 * looked for by its marker before anything else happens. Items are reported in plan order,
 * whatever order the responses came back in.
 */
export function executeDataPlan(plan: ExecutablePlan, marker: string, options: ExecuteOptions = {}) {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  return async (call: PlanCall): Promise<PlanOutcome> => {
    const slots: Item[][] = [];
    // Creates found again by a read (lost or accepted without an id), not yet claimed: one read
    // of a collection may find several, each the create whose marked values it carries.
    const foundAgain: { id: string; marked: Record<string, string> }[] = [];
    const claimFound = (body: Record<string, unknown>): string | undefined => {
      const at = foundAgain.findIndex((found) =>
        Object.entries(found.marked).every(([field, value]) => body[field] === value),
      );
      return at === -1 ? undefined : foundAgain.splice(at, 1)[0]?.id;
    };
    const create: Create = async (type, path, body, link) => {
      const record = await call('request', { method: 'POST', path, body });
      const seen = [record];
      const result = record.result as RequestResult | undefined;
      let id = record.outcome === 'ok' ? result?.ids?.[0] : undefined;
      // A refused call (`rejected`: a body too deep, another origin) sent nothing: not lost.
      const lost = record.outcome === 'error' && (result?.status === undefined || result.status >= 500);
      // Accepted (2xx) with no id Tally can read (an empty body, 202, an id in a shape it does not
      // know): the item may well exist, so it is looked for as after a lost response.
      const idless = record.outcome === 'ok' && !id;
      if (lost || idless) {
        // The server may have made it: a read of the collection finds it by the marker.
        id = claimFound(body);
        if (!id) {
          const check = await call('lookup', { path: path.split('?')[0] });
          seen.push(check);
          foundAgain.push(...((check.result as RequestResult | undefined)?.found ?? []));
          id = claimFound(body);
        }
      }
      if (!id) {
        const unknown = lost
          ? " (the response was lost and no item with this run's marker was found: the outcome is unknown)"
          : idless
            ? ` (the server accepted it, but its response carried no id Tally could read and a read of ${path.split('?')[0]} found no item with this run's marker: it may exist, and \`tally fish cleanup\` finds it by the marker)`
            : '';
        return {
          error: `creating ${withArticle(singular(type))} failed: ${failureOf('POST', path, record)}${unknown}`,
        };
      }
      if (link) {
        const unlinked = await unobservedLink(call, seen, id, link);
        if (unlinked)
          return {
            error: `${withArticle(singular(type))} was created (${singular(type)} ${id}), but ${unlinked}`,
          };
      }
      // The title the app answered with, when it told: one that stores `·` as `-` or trims has
      // still made what was asked (titles the user asked for are the contract's to check).
      const sent =
        typeof body.title === 'string' ? body.title : typeof body.name === 'string' ? body.name : undefined;
      const title = sent === undefined ? undefined : (answeredTitle(record, id) ?? sent);
      return { id, item: { type: singular(type), id, ...(title ? { title } : {}) } as Item };
    };

    const into = await resolveContainer(plan, marker, call, create);
    if ('stop' in into) return into;
    const child = plan.child;
    const parentTask =
      (parentNumber: number): BoundedTask =>
      async () => {
        const label = `${capitalize(singular(plan.parent.type))} ${parentNumber} · ${marker}`;
        let target = {
          path: plan.parent.example.path,
          body: freshBody(plan.parent, label, { run: marker, serial: parentNumber }),
        };
        if (into.id && plan.container)
          target = linkTo(target.path, target.body, plan.container.link, into.id);
        const parent = await create(
          plan.parent.type,
          target.path,
          target.body,
          into.id && plan.container ? bodyLink(plan.container.link, into.id) : undefined,
        );
        if ('error' in parent) return { error: parent.error };
        const slot: Item[] = [parent.item];
        slots[parentNumber] = slot;
        if (!child) return [];
        return Array.from(
          { length: child.count },
          (_unused, at): BoundedTask =>
            async () => {
              const childLabel = `${capitalize(singular(child.type))} ${parentNumber}.${at + 1} · ${marker}`;
              // Serials: the container 0, parents 1…P, then every child its own.
              const serial = plan.parent.count + (parentNumber - 1) * child.count + at + 1;
              const linked = linkTo(
                child.example.path,
                freshBody(child, childLabel, { run: marker, serial }),
                child.link,
                parent.id,
              );
              const made = await create(
                child.type,
                linked.path,
                linked.body,
                bodyLink(child.link, parent.id),
              );
              if ('error' in made) return { error: made.error };
              slot[at + 1] = made.item;
              return [];
            },
        );
      };
    const failure = await runBounded(
      concurrency,
      Array.from({ length: plan.parent.count }, (_unused, at) => parentTask(at + 1)),
      options.signal,
    );
    if (failure !== undefined) return { stop: failure, failed: true };
    const created = [
      ...(into.item ? [into.item] : []),
      ...slots.flatMap((slot) => slot ?? []).filter(Boolean),
    ];
    const finish: FishermanFinish = {
      summary: `Created ${madeCounts(created)} through the API${into.note ? `; ${into.note}` : ''}.`,
      created,
      failed: [],
    };
    return { finish };
  };
}

/**
 * "2 suites and 6 tests", by the types made: a bare "6 items" is read by the summary check as
 * a count of the app's `/items` (or `/line-items`) collection, which nothing here made.
 */
function madeCounts(created: readonly Item[]): string {
  const byType = new Map<string, number>();
  for (const item of created) byType.set(item.type, (byType.get(item.type) ?? 0) + 1);
  const parts = [...byType].map(([type, count]) => countOf(count, type));
  if (parts.length === 0) return 'nothing';
  return parts.length === 1 ? (parts[0] as string) : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

type Create = (
  type: string,
  path: string,
  body: Record<string, unknown>,
  link?: { field: string; value: string },
) => Promise<{ error: string } | { id: string; item: Item }>;

/** The body field that must come back holding the parent's id; a path link is the path itself. */
const bodyLink = (link: ParentLink, parentId: string) =>
  link.kind === 'body' ? { field: link.field, value: parentId } : undefined;

/** `postId`, `post_id` and `post` name one parent: the name without its id suffix. */
const sameStem = (a: string, b: string) => linkStem(a).toLowerCase() === linkStem(b).toLowerCase();

/** The parent id the app shows under `field`, or under another spelling of it (`post: {id}` for `postId`). */
function linkShown(effect: Effect | undefined, field: string): string | undefined {
  const links = (effect?.observed?.links as Record<string, string> | undefined) ?? {};
  if (links[field] !== undefined) return links[field];
  return Object.entries(links).find(([name]) => sameStem(name, field))?.[1];
}

/**
 * Why a create's link to its parent is not evidence, or undefined when it is: the field Tally
 * sent counts only as the app shows it. An answer that leaves it out (an app that drops an
 * unknown `postId`) is checked by one read of the item; the usual answer carries it, and costs
 * nothing more.
 */
async function unobservedLink(
  call: PlanCall,
  records: Record_[],
  id: string,
  link: { field: string; value: string },
): Promise<string | undefined> {
  const effects = records.flatMap((record) => (record.evidence?.effects ?? []) as Effect[]);
  const made = effects.find((effect) => effect.kind === 'created' && effect.id === id);
  if (!made) return undefined;
  const answered = linkShown(made, link.field);
  if (answered === link.value) return undefined;
  if (answered !== undefined) return `the app answered ${link.field} ${answered}, not ${link.value}`;
  const read = await call('lookup', { path: made.key });
  if (read.outcome !== 'ok')
    return `the app's answer left out ${link.field}, and reading it back failed (${failureOf('GET', made.key, read)}): its link to ${link.value} is not shown`;
  const readEffects = (read.evidence?.effects ?? []) as Effect[];
  const shown = linkShown(
    readEffects.find((effect) => effect.key === made.key),
    link.field,
  );
  if (shown === link.value) return undefined;
  return shown === undefined
    ? `the app did not keep its ${link.field}: the answer left it out and GET ${made.key} shows none (sent ${link.value})`
    : `GET ${made.key} shows ${link.field} ${shown}, not ${link.value}`;
}

/**
 * Where the top-level items go: the named parent (checked to exist first), else an existing
 * one a read of its collection finds, else one created now — and a note saying which.
 */
async function resolveContainer(
  plan: ExecutablePlan,
  marker: string,
  call: PlanCall,
  create: Create,
): Promise<{ id?: string; item?: Item; note?: string } | { stop: string; failed?: boolean }> {
  const container = plan.container;
  if (!container) return {};
  const kind = singular(container.type);
  const items = plan.parent.type;
  const collection = container.example.path.split('?')[0] as string;
  if (container.id !== undefined) {
    const path = `${collection}/${encodeURIComponent(container.id)}`;
    const check = await call('lookup', { path });
    if (check.outcome !== 'ok')
      return {
        stop: `${kind} ${container.id} cannot be used: ${failureOf('GET', path, check)}. Name a ${kind} that exists in this scope.`,
        failed: true,
      };
    return { id: container.id, note: `the ${items} went into the existing ${kind} ${container.id}` };
  }
  const listing = await call('lookup', { path: collection });
  if (listing.outcome !== 'ok')
    return {
      stop: `cannot look for a ${kind} to put the ${items} in: ${failureOf('GET', collection, listing)}`,
      failed: true,
    };
  const existing = listedIds(listing, collection)[0];
  if (existing !== undefined)
    return {
      id: existing,
      note: `the ${items} went into the existing ${kind} ${existing} (found by GET ${collection}; no ${kind} was named)`,
    };
  const made = await create(
    container.type,
    collection,
    freshBody(container, `${capitalize(kind)} 1 · ${marker}`, { run: marker, serial: 0 }),
  );
  if ('error' in made) return { stop: made.error, failed: true };
  return {
    id: made.id,
    item: made.item,
    note: `no ${kind} existed, so ${kind} ${made.id} was created for the ${items}`,
  };
}
