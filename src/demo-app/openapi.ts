import { SESSION_COOKIE } from './sessions.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const data = (schema: unknown) => json({ type: 'object', required: ['data'], properties: { data: schema } });
const error = (description: string) => ({ description, ...json(ref('Error')) });

const project = { $ref: '#/components/parameters/project' };
const idParameter = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
});
const common = {
  '401': error('Not logged in'),
  '404': error('No such project or item'),
};
const writeErrors = {
  ...common,
  '400': error('The body is not a JSON object'),
  '403': error('Missing or wrong x-csrf-token'),
  '422': { description: 'Validation failed', ...json(ref('ValidationError')) },
};

/**
 * The demo API's own OpenAPI 3.0 document, true to `api.ts`: what is required, the
 * priority enum, the date format, the 201 + Location of creates, the 409 of a duplicate
 * suite title and the 422 `{ error, errors }` shape. Served at GET /api/openapi.json
 * without a session (documents are public; the API itself is not).
 */
export function demoOpenApi(): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Tally demo app API', version: '1.0.0' },
    servers: [{ url: '/' }],
    security: [{ session: [], csrf: [] }],
    paths: {
      '/api/projects': {
        get: {
          summary: 'List projects',
          responses: {
            '200': { description: 'Projects', ...data({ type: 'array', items: ref('Project') }) },
            ...common,
          },
        },
      },
      '/api/{project}': {
        parameters: [project],
        get: {
          summary: 'One project',
          responses: { '200': { description: 'The project', ...data(ref('Project')) }, ...common },
        },
      },
      '/api/{project}/suites': {
        parameters: [project],
        get: {
          summary: 'List suites',
          responses: {
            '200': { description: 'Suites by position', ...data({ type: 'array', items: ref('Suite') }) },
            ...common,
          },
        },
        post: {
          summary: 'Create a suite',
          requestBody: { required: true, ...json(ref('SuiteInput')) },
          responses: {
            '201': { description: 'Created', ...data(ref('Suite')) },
            '409': error('A suite with this title exists in the project'),
            ...writeErrors,
          },
        },
      },
      '/api/{project}/suites/{suiteId}': {
        parameters: [project, idParameter('suiteId')],
        get: {
          summary: 'One suite',
          responses: { '200': { description: 'The suite', ...data(ref('Suite')) }, ...common },
        },
        patch: {
          summary: 'Rename a suite',
          requestBody: { required: true, ...json(ref('SuiteInput')) },
          responses: { '200': { description: 'Updated', ...data(ref('Suite')) }, ...writeErrors },
        },
        put: {
          summary: 'Rename a suite',
          requestBody: { required: true, ...json(ref('SuiteInput')) },
          responses: { '200': { description: 'Updated', ...data(ref('Suite')) }, ...writeErrors },
        },
        delete: {
          summary: 'Delete a suite without tests',
          responses: {
            '204': { description: 'Deleted' },
            '409': error('The suite still has tests'),
            ...writeErrors,
          },
        },
      },
      '/api/{project}/suites/{suiteId}/move': {
        parameters: [project, idParameter('suiteId')],
        post: {
          summary: 'Move a suite to a position',
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              required: ['position'],
              properties: { position: { type: 'integer', minimum: 1 } },
            }),
          },
          responses: { '200': { description: 'Moved', ...data(ref('Suite')) }, ...writeErrors },
        },
      },
      '/api/{project}/tests': {
        parameters: [project],
        get: {
          summary: 'List tests',
          parameters: [{ name: 'suite_id', in: 'query', required: false, schema: { type: 'integer' } }],
          responses: {
            '200': { description: 'Tests', ...data({ type: 'array', items: ref('Test') }) },
            ...common,
          },
        },
        post: {
          summary: 'Create a test in a suite of the project',
          requestBody: { required: true, ...json(ref('TestInput')) },
          responses: { '201': { description: 'Created', ...data(ref('Test')) }, ...writeErrors },
        },
      },
      '/api/{project}/tests/{testId}': {
        parameters: [project, idParameter('testId')],
        get: {
          summary: 'One test',
          responses: { '200': { description: 'The test', ...data(ref('Test')) }, ...common },
        },
        delete: {
          summary: 'Delete a test',
          responses: { '204': { description: 'Deleted' }, ...writeErrors },
        },
      },
      '/api/{project}/milestones': {
        parameters: [project],
        get: {
          summary: 'List milestones (404 where the project has them disabled)',
          responses: {
            '200': { description: 'Milestones', ...data({ type: 'array', items: ref('Milestone') }) },
            ...common,
          },
        },
        post: {
          summary: 'Create a milestone (404 where the project has them disabled)',
          requestBody: { required: true, ...json(ref('MilestoneInput')) },
          responses: { '201': { description: 'Created', ...data(ref('Milestone')) }, ...writeErrors },
        },
      },
      '/api/{project}/milestones/{milestoneId}': {
        parameters: [project, idParameter('milestoneId')],
        get: {
          summary: 'One milestone',
          responses: { '200': { description: 'The milestone', ...data(ref('Milestone')) }, ...common },
        },
        delete: {
          summary: 'Delete a milestone',
          responses: { '204': { description: 'Deleted' }, ...writeErrors },
        },
      },
    },
    components: {
      parameters: {
        project: {
          name: 'project',
          in: 'path',
          required: true,
          schema: { type: 'string', example: 'alpha-shop' },
        },
      },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'Set by POST /login (a form post)',
        },
        csrf: {
          type: 'apiKey',
          in: 'header',
          name: 'x-csrf-token',
          description: 'Required on writes: the token from meta[name="csrf-token"] of any page',
        },
      },
      schemas: {
        Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
        ValidationError: {
          type: 'object',
          required: ['error', 'errors'],
          properties: {
            error: { type: 'string', example: 'Validation failed' },
            errors: {
              type: 'object',
              additionalProperties: { type: 'string' },
              example: { title: 'is required' },
            },
          },
        },
        Project: {
          type: 'object',
          required: ['slug', 'name', 'milestones_enabled'],
          properties: {
            slug: { type: 'string' },
            name: { type: 'string' },
            milestones_enabled: { type: 'boolean' },
          },
        },
        SuiteInput: {
          type: 'object',
          required: ['title'],
          properties: {
            title: { type: 'string', minLength: 1, description: 'Unique within the project (409 otherwise)' },
            description: { type: 'string' },
          },
        },
        Suite: {
          type: 'object',
          required: ['id', 'project', 'title', 'position', 'created_at'],
          properties: {
            id: { type: 'integer', readOnly: true },
            project: { type: 'string' },
            title: { type: 'string' },
            description: { type: 'string' },
            position: { type: 'integer', minimum: 1 },
            created_at: { type: 'string', format: 'date-time', readOnly: true },
          },
        },
        TestInput: {
          type: 'object',
          required: ['title', 'suite_id'],
          properties: {
            title: { type: 'string', minLength: 1 },
            suite_id: { type: 'integer', description: 'A suite of the same project' },
            priority: { type: 'string', enum: ['low', 'normal', 'high'], default: 'normal' },
          },
        },
        Test: {
          type: 'object',
          required: ['id', 'project', 'suite_id', 'title', 'priority', 'status', 'created_at'],
          properties: {
            id: { type: 'integer', readOnly: true },
            project: { type: 'string' },
            suite_id: { type: 'integer' },
            title: { type: 'string' },
            priority: { type: 'string', enum: ['low', 'normal', 'high'] },
            status: { type: 'string', enum: ['draft'] },
            created_at: { type: 'string', format: 'date-time', readOnly: true },
          },
        },
        MilestoneInput: {
          type: 'object',
          required: ['title'],
          properties: {
            title: { type: 'string', minLength: 1 },
            due_date: { type: 'string', format: 'date', nullable: true },
          },
        },
        Milestone: {
          type: 'object',
          required: ['id', 'project', 'title', 'due_date', 'created_at'],
          properties: {
            id: { type: 'integer', readOnly: true },
            project: { type: 'string' },
            title: { type: 'string' },
            due_date: { type: 'string', format: 'date', nullable: true },
            created_at: { type: 'string', format: 'date-time', readOnly: true },
          },
        },
      },
    },
  };
}
