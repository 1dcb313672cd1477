import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './http-helpers.js';
import type { Session } from './sessions.js';
import type { DemoStore, Milestone, Suite, TestCase } from './store.js';

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
  session: Session;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

const now = () => new Date().toISOString();
const invalid = (errors: Record<string, string>): Reply => ({
  status: 422,
  body: { error: 'Validation failed', errors },
});
const notFound = (what: string): Reply => ({ status: 404, body: { error: `${what} not found` } });

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function suitesOf(store: DemoStore, project: string): Suite[] {
  return [...store.suites.values()]
    .filter((suite) => suite.project === project)
    .sort((a, b) => a.position - b.position);
}

function createSuite(store: DemoStore, project: string, body: Record<string, unknown>): Reply {
  const title = text(body.title);
  if (!title) return invalid({ title: 'is required' });
  if (suitesOf(store, project).some((suite) => suite.title === title)) {
    // A legacy envelope whose `status` lies: the HTTP status is the truth (409).
    return { status: 409, body: { status: 200, error: `A suite titled "${title}" already exists` } };
  }
  const suite: Suite = {
    id: store.nextId.suite++,
    project,
    title,
    description: typeof body.description === 'string' ? body.description : '',
    position: suitesOf(store, project).length + 1,
    created_at: now(),
  };
  store.suites.set(suite.id, suite);
  return { status: 201, body: { data: suite }, headers: { location: `/api/${project}/suites/${suite.id}` } };
}

function createTest(store: DemoStore, project: string, body: Record<string, unknown>): Reply {
  const title = text(body.title);
  const suiteId = Number(body.suite_id);
  const errors: Record<string, string> = {};
  if (!title) errors.title = 'is required';
  if (body.suite_id === undefined || body.suite_id === null || body.suite_id === '')
    errors.suite_id = 'is required';
  else if (store.suites.get(suiteId)?.project !== project)
    errors.suite_id = `no suite ${String(body.suite_id)} in ${project}`;
  const priority = (body.priority ?? 'normal') as TestCase['priority'];
  if (priority !== 'low' && priority !== 'normal' && priority !== 'high')
    errors.priority = 'must be low, normal or high';
  if (Object.keys(errors).length > 0) return invalid(errors);
  const test: TestCase = {
    id: store.nextId.test++,
    project,
    suite_id: suiteId,
    title: title as string,
    priority,
    status: 'draft',
    created_at: now(),
  };
  store.tests.set(test.id, test);
  return { status: 201, body: { data: test }, headers: { location: `/api/${project}/tests/${test.id}` } };
}

function createMilestone(
  store: DemoStore,
  project: string,
  enabled: boolean,
  body: Record<string, unknown>,
): Reply {
  if (!enabled) return { status: 404, body: { error: `Milestones are not enabled for ${project}` } };
  const title = text(body.title);
  if (!title) return invalid({ title: 'is required' });
  const dueDate = body.due_date === undefined || body.due_date === null ? null : String(body.due_date);
  if (dueDate !== null && !/^\d{4}-\d{2}-\d{2}$/.test(dueDate))
    return invalid({ due_date: 'must be YYYY-MM-DD' });
  const milestone: Milestone = {
    id: store.nextId.milestone++,
    project,
    title,
    due_date: dueDate,
    created_at: now(),
  };
  store.milestones.set(milestone.id, milestone);
  return {
    status: 201,
    body: { data: milestone },
    headers: { location: `/api/${project}/milestones/${milestone.id}` },
  };
}

/** The JSON API under /api. Returns undefined for a path it does not serve. */
export function handleApi(store: DemoStore, request: ApiRequest): Reply | undefined {
  const { method, path, body, query } = request;
  if (path === '/api/projects' && method === 'GET') return { status: 200, body: { data: store.projects } };
  const match = /^\/api\/(?:projects\/)?([^/]+)(?:\/([^/]+)(?:\/(\d+)(?:\/([^/]+))?)?)?$/.exec(path);
  if (!match) return undefined;
  const [, slug, collection, idText, action] = match as unknown as [
    string,
    string,
    string?,
    string?,
    string?,
  ];
  const project = store.projects.find((candidate) => candidate.slug === slug);
  if (!project) return notFound(`Project "${slug}"`);
  if (!collection) return method === 'GET' ? { status: 200, body: { data: project } } : undefined;
  const id = idText === undefined ? undefined : Number(idText);

  if (collection === 'suites') {
    if (id === undefined) {
      if (method === 'GET') return { status: 200, body: { data: suitesOf(store, slug) } };
      if (method === 'POST') return createSuite(store, slug, body);
      return undefined;
    }
    const suite = store.suites.get(id);
    if (!suite || suite.project !== slug) return notFound(`Suite ${id}`);
    if (action === 'move' && method === 'POST') {
      const position = Number(body.position);
      if (!Number.isInteger(position) || position < 1)
        return invalid({ position: 'must be a whole number from 1' });
      suite.position = position;
      return { status: 200, body: { data: suite } };
    }
    if (action) return undefined;
    if (method === 'GET') return { status: 200, body: { data: suite } };
    if (method === 'PATCH' || method === 'PUT') {
      const title = text(body.title);
      if (!title) return invalid({ title: 'is required' });
      suite.title = title;
      return { status: 200, body: { data: suite } };
    }
    if (method === 'DELETE') {
      if ([...store.tests.values()].some((test) => test.suite_id === id)) {
        return { status: 409, body: { error: `Suite ${id} still has tests: delete them first` } };
      }
      store.suites.delete(id);
      return { status: 204 };
    }
    return undefined;
  }

  if (collection === 'tests') {
    if (id === undefined) {
      if (method === 'GET') {
        const suiteFilter = query.get('suite_id');
        const tests = [...store.tests.values()].filter(
          (test) => test.project === slug && (suiteFilter === null || String(test.suite_id) === suiteFilter),
        );
        return { status: 200, body: { data: tests } };
      }
      if (method === 'POST') return createTest(store, slug, body);
      return undefined;
    }
    const test = store.tests.get(id);
    if (!test || test.project !== slug || action) return notFound(`Test ${id}`);
    if (method === 'GET') return { status: 200, body: { data: test } };
    if (method === 'DELETE') {
      store.tests.delete(id);
      return { status: 204 };
    }
    return undefined;
  }

  if (collection === 'milestones') {
    if (id === undefined) {
      if (method === 'GET') {
        if (!project.milestones_enabled)
          return { status: 404, body: { error: `Milestones are not enabled for ${slug}` } };
        return {
          status: 200,
          body: { data: [...store.milestones.values()].filter((milestone) => milestone.project === slug) },
        };
      }
      if (method === 'POST') return createMilestone(store, slug, project.milestones_enabled, body);
      return undefined;
    }
    const milestone = store.milestones.get(id);
    if (!milestone || milestone.project !== slug || action) return notFound(`Milestone ${id}`);
    if (method === 'GET') return { status: 200, body: { data: milestone } };
    if (method === 'DELETE') {
      store.milestones.delete(id);
      return { status: 204 };
    }
    return undefined;
  }
  return notFound(`Collection "${collection}"`);
}

export function writeReply(response: ServerResponse, reply: Reply): void {
  if (reply.body === undefined) {
    response.writeHead(reply.status, reply.headers ?? {});
    response.end();
    return;
  }
  sendJson(response, reply.status, reply.body, reply.headers);
}

export type { IncomingMessage };
