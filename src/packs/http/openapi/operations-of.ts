import { ID, resourceOf } from '../endpoints/path-normalizer.js';
import type { ApiOperation, ApiParameter } from './api-operation.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Node = Record<string, unknown>;

const isObject = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `/pets/{petId}/visits` → `/pets/{id}/visits`: the shape capture patterns have. */
export function patternOf(template: string): string {
  const segments = template.split('/').filter(Boolean);
  return `/${segments.map((segment) => (segment.includes('{') ? ID : segment)).join('/')}`;
}

function parametersOf(list: unknown, swagger2: boolean): ApiParameter[] {
  if (!Array.isArray(list)) return [];
  const parameters: ApiParameter[] = [];
  for (const raw of list) {
    if (!isObject(raw) || typeof raw.name !== 'string') continue;
    const where = raw.in;
    if (where !== 'path' && where !== 'query' && where !== 'header' && where !== 'cookie') continue;
    // Swagger 2 puts type/format/enum on the parameter itself; OpenAPI 3 under `schema`.
    const schema = isObject(raw.schema) ? raw.schema : swagger2 ? raw : undefined;
    parameters.push({
      name: raw.name,
      in: where,
      required: raw.required === true || where === 'path',
      ...(schema ? { schema } : {}),
      ...(raw.example !== undefined ? { example: raw.example } : {}),
    });
  }
  return parameters;
}

/** Operation parameters override path-level ones with the same name and location. */
function mergeParameters(pathLevel: ApiParameter[], operation: ApiParameter[]): ApiParameter[] {
  const key = (parameter: ApiParameter) => `${parameter.in}:${parameter.name}`;
  const own = new Set(operation.map(key));
  return [...pathLevel.filter((parameter) => !own.has(key(parameter))), ...operation];
}

const JSON_TYPE = /^application\/(.+\+)?json\b|^\*\/\*$/i;

function openApiBody(operation: Node): ApiOperation['requestBody'] {
  const body = operation.requestBody;
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const entries = Object.entries(body.content);
  const chosen = entries.find(([type]) => JSON_TYPE.test(type)) ?? entries[0];
  if (!chosen || !isObject(chosen[1])) return undefined;
  const schema = isObject(chosen[1].schema) ? chosen[1].schema : {};
  return { contentType: chosen[0], required: body.required === true, schema };
}

function swaggerBody(operation: Node, consumes: unknown): ApiOperation['requestBody'] {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
  const body = parameters.find((parameter) => isObject(parameter) && parameter.in === 'body') as
    | Node
    | undefined;
  if (!body) return undefined;
  const types = Array.isArray(operation.consumes)
    ? operation.consumes
    : Array.isArray(consumes)
      ? consumes
      : [];
  const contentType =
    (types.find((type) => JSON_TYPE.test(String(type))) as string | undefined) ?? 'application/json';
  return {
    contentType,
    required: body.required === true,
    schema: isObject(body.schema) ? body.schema : {},
  };
}

function serversOf(document: Node): string[] {
  if (typeof document.swagger === 'string') {
    const basePath = typeof document.basePath === 'string' ? document.basePath : '';
    if (typeof document.host !== 'string') return basePath ? [basePath] : [];
    const schemes = Array.isArray(document.schemes) ? document.schemes : [];
    const scheme = schemes.includes('https') ? 'https' : (schemes[0] ?? 'https');
    return [`${scheme}://${document.host}${basePath}`];
  }
  if (!Array.isArray(document.servers)) return [];
  return document.servers.filter(isObject).flatMap((server) => {
    if (typeof server.url !== 'string') return [];
    const variables = isObject(server.variables) ? server.variables : {};
    // `{scheme}://api.example.com/{version}` with each variable's default.
    return [
      server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const variable = variables[name];
        return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
      }),
    ];
  });
}

/**
 * The operations of one dereferenced document, Swagger 2.0 and OpenAPI 3.x alike: parameters
 * merged with the path level's, the JSON request body's schema, declared responses.
 */
export function operationsOf(
  document: Node,
  source: string,
): { operations: ApiOperation[]; servers: string[] } {
  const swagger2 = typeof document.swagger === 'string';
  const operations: ApiOperation[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item) || !path.startsWith('/')) continue;
    const pathParameters = parametersOf(item.parameters, swagger2);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const pattern = patternOf(path);
      const resource = resourceOf(pattern);
      const requestBody = swagger2 ? swaggerBody(operation, document.consumes) : openApiBody(operation);
      operations.push({
        method: method.toUpperCase(),
        path,
        pattern,
        ...(resource ? { resource } : {}),
        ...(typeof operation.operationId === 'string' ? { operationId: operation.operationId } : {}),
        ...(typeof operation.summary === 'string' ? { summary: operation.summary } : {}),
        parameters: mergeParameters(pathParameters, parametersOf(operation.parameters, swagger2)),
        ...(requestBody ? { requestBody } : {}),
        responses: isObject(operation.responses) ? Object.keys(operation.responses) : [],
        source,
      });
    }
  }
  return { operations, servers: serversOf(document) };
}
