import { randomBytes } from 'node:crypto';
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

/**
 * One request per entity: replay each captured example with fresh unique titles, parents
 * before children, children linked to the ids their parents' responses returned.
 */
export function executeDataPlan(plan: DataPlan, request: string) {
  return async (call: PlanCall): Promise<PlanOutcome> => {
    const tag = randomBytes(3).toString('hex');
    const created: FishermanFinish['created'] = [];
    const create = async (type: string, path: string, body: Record<string, unknown>) => {
      const record = await call('request', { method: 'POST', path, body });
      const result = record.result as
        | { status?: number; ids?: string[]; category?: string; body?: unknown }
        | undefined;
      const id = result?.ids?.[0];
      if (record.outcome !== 'ok' || !id) {
        const why =
          record.error?.message ??
          `${result?.status} ${result?.category ?? ''} ${JSON.stringify(result?.body ?? '')}`;
        return { error: `creating a ${type} failed: POST ${path} → ${why}` };
      }
      const title =
        typeof body.title === 'string' ? body.title : typeof body.name === 'string' ? body.name : undefined;
      created.push({ type: singular(type), id, ...(title ? { title } : {}) });
      return { id };
    };
    for (let parentNumber = 1; parentNumber <= plan.parent.count; parentNumber++) {
      const label = `${capitalize(singular(plan.parent.type))} ${parentNumber} · ${tag}`;
      const parent = await create(
        plan.parent.type,
        plan.parent.example.path,
        freshBody(plan.parent.example.requestBody, label),
      );
      if ('error' in parent) return { stop: parent.error as string, failed: true };
      const child = plan.child;
      if (!child) continue;
      for (let childNumber = 1; childNumber <= child.count; childNumber++) {
        const childLabel = `${capitalize(singular(child.type))} ${parentNumber}.${childNumber} · ${tag}`;
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
    const finish: FishermanFinish = { summary: `Created what was asked: ${request}.`, created, failed: [] };
    return { finish };
  };
}
