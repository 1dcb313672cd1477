import type { PlanCall, PlanOutcome } from '../../core/agent/run-plan.js';
import { singular } from '../../packs/http/endpoints/resource-name.js';
import type { FishermanFinish } from './fisherman-finish.js';
import type { DataPlan, ParentLink } from './plan-data-request.js';

const TITLE_FIELDS = /^(title|name|label|subject|heading|summary)$/i;

function freshBody(example: unknown, label: string): Record<string, unknown> {
  const body = structuredClone(example) as Record<string, unknown>;
  for (const key of Object.keys(body))
    if (TITLE_FIELDS.test(key) && typeof body[key] === 'string') body[key] = label;
  return body;
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
      body: { ...body, [link.field]: link.numeric && /^\d+$/.test(parentId) ? Number(parentId) : parentId },
    };
  const segments = path.split('/');
  // Path segments as split here start with '' for the leading slash.
  segments[link.index + 1] = encodeURIComponent(parentId);
  return { path: segments.join('/'), body };
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface RequestResult {
  status?: number;
  ids?: string[];
  message?: string;
  found?: { id: string }[];
}

/** `POST /items/articles → 403: You don't have permission…` — the status and the server's words. */
function failureOf(path: string, record: Awaited<ReturnType<PlanCall>>): string {
  const result = record.result as RequestResult | undefined;
  if (result?.status !== undefined)
    return `POST ${path} → ${result.status}${result.message ? `: ${result.message}` : ''}`;
  return `POST ${path} → ${record.error?.message ?? 'no response'}`;
}

/**
 * One request per entity: replay each captured example with fresh titles stamped with the
 * run's marker, parents before children, children linked to the ids their parents'
 * responses returned. A create whose response was lost is looked for by its marker before
 * anything else happens.
 */
export function executeDataPlan(plan: DataPlan, marker: string) {
  return async (call: PlanCall): Promise<PlanOutcome> => {
    const created: FishermanFinish['created'] = [];
    const create = async (type: string, path: string, body: Record<string, unknown>) => {
      const record = await call('request', { method: 'POST', path, body });
      const result = record.result as RequestResult | undefined;
      let id = record.outcome === 'ok' ? result?.ids?.[0] : undefined;
      const lost = record.outcome !== 'ok' && (result?.status === undefined || result.status >= 500);
      if (lost) {
        // The server may have made it: a read of the collection finds it by the marker.
        const check = await call('lookup', { path: path.split('?')[0] });
        id = (check.result as RequestResult | undefined)?.found?.[0]?.id;
      }
      if (!id) {
        const unknown = lost
          ? " (the response was lost and no item with this run's marker was found: the outcome is unknown)"
          : '';
        return { error: `creating a ${singular(type)} failed: ${failureOf(path, record)}${unknown}` };
      }
      const title =
        typeof body.title === 'string' ? body.title : typeof body.name === 'string' ? body.name : undefined;
      created.push({ type: singular(type), id, ...(title ? { title } : {}) });
      return { id };
    };
    for (let parentNumber = 1; parentNumber <= plan.parent.count; parentNumber++) {
      const label = `${capitalize(singular(plan.parent.type))} ${parentNumber} · ${marker}`;
      const parent = await create(
        plan.parent.type,
        plan.parent.example.path,
        freshBody(plan.parent.example.requestBody, label),
      );
      if ('error' in parent) return { stop: parent.error as string, failed: true };
      const child = plan.child;
      if (!child) continue;
      for (let childNumber = 1; childNumber <= child.count; childNumber++) {
        const childLabel = `${capitalize(singular(child.type))} ${parentNumber}.${childNumber} · ${marker}`;
        const linked = linkTo(
          child.example.path,
          freshBody(child.example.requestBody, childLabel),
          child.link,
          parent.id as string,
        );
        const made = await create(child.type, linked.path, linked.body);
        if ('error' in made) return { stop: made.error as string, failed: true };
      }
    }
    const finish: FishermanFinish = {
      summary: `Created ${created.length} item${created.length === 1 ? '' : 's'} through the API.`,
      created,
      failed: [],
    };
    return { finish };
  };
}
