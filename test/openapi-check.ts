import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../src/api/openapi.ts';
import { VERSION } from '../src/app.ts';

/** The document the service serves. */
export const OPENAPI = openApiDocument(VERSION);

type Json = Record<string, any>;

/**
 * The document made strict for checking answers: an object may not carry fields
 * it does not name. The served document leaves them open, as the API grows
 * additively and clients should ignore what they do not know.
 */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (typeof node !== 'object' || node === null) return node;
  const copy: Json = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closeObjects(value)]));
  if (copy.type === 'object' && copy.properties && copy.additionalProperties === undefined)
    copy.additionalProperties = false;
  return copy;
}

const SCHEMAS_ID = 'https://parley.invalid/schemas';
// The document made strict, with its references to named schemas made absolute:
// each part of it can then be compiled on its own.
const CHECKED = JSON.parse(
  JSON.stringify(closeObjects(OPENAPI)).replaceAll('"#/components/schemas/', `"${SCHEMAS_ID}#/$defs/`),
) as Json;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
ajv.addSchema({ $id: SCHEMAS_ID, $defs: CHECKED.components.schemas });

const pointer = (...parts: string[]) =>
  parts.map((part) => `/${part.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** The node a JSON pointer names in the document. */
const lookup = (at: string): Json =>
  at
    .slice(1)
    .split('/')
    .reduce<Json>((node, part) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')], CHECKED);

const resolve = (node: Json): Json => (typeof node.$ref === 'string' ? lookup(node.$ref.slice(1)) : node);

const validators = new Map<string, ValidateFunction>();

function expectValid(at: string, value: unknown, what: string) {
  let validate = validators.get(at);
  if (!validate) {
    validate = ajv.compile(lookup(at));
    validators.set(at, validate);
  }
  assert.ok(
    validate(value),
    `${what} does not match /openapi.json: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 500)}`,
  );
}

/** The document's path (`/api/attachments/{id}`) a request's path is one of, if any. */
function documentedPath(url: string): string | undefined {
  const path = new URL(url, 'http://localhost').pathname;
  return Object.keys(OPENAPI.paths).find((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
}

/** Whether /openapi.json describes what this request gets back. */
function isChecked(method: string, url: string): boolean {
  const path = documentedPath(url);
  if (!path || method === 'HEAD' || path === '/openapi.json') return false;
  // Outside /api, another method is an unknown route (404), which no document lists.
  return Boolean((OPENAPI.paths as Json)[path][method.toLowerCase()]) || path.startsWith('/api/');
}

export interface CheckedAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Asserts that an answer is one /openapi.json describes: a documented status
 * for the operation (or 405 for a method an API path does not take), its required
 * headers with valid values, and a body matching its schema. Paths the document
 * leaves out (the hosted pages, assets) are not checked.
 */
export function checkAnswer(method: string, url: string, answer: CheckedAnswer): void {
  if (!isChecked(method, url)) return;
  const path = documentedPath(url)!;
  const what = `${method} ${path} → ${answer.status}`;
  const operation = (OPENAPI.paths as Json)[path][method.toLowerCase()];
  let at: string;
  if (operation) {
    assert.ok(
      operation.responses[answer.status],
      `${what}: a status /openapi.json does not list (${answer.text.slice(0, 200)})`,
    );
    at = pointer('paths', path, method.toLowerCase(), 'responses', String(answer.status));
  } else {
    assert.equal(answer.status, 405, `${what}: a method /openapi.json does not list must answer 405`);
    at = pointer('components', 'responses', 'MethodNotAllowed');
  }
  const response = resolve(lookup(at));
  for (const [name, ref] of Object.entries<Json>(response.headers ?? {})) {
    const header = resolve(ref);
    const value = answer.headers.get(name);
    if (value === null) {
      assert.ok(!header.required, `${what}: header ${name} missing`);
      continue;
    }
    expectValid(
      pointer('components', 'headers', name, 'schema'),
      header.schema.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value,
      `${what}: header ${name}`,
    );
  }
  // A file's bytes (any type), or no body at all (a 304).
  if (!response.content?.['application/json']) {
    if (!response.content) assert.equal(answer.text, '', `${what}: a body where none is documented`);
    return;
  }
  assert.equal(answer.headers.get('content-type'), 'application/json', `${what}: content type`);
  expectValid(`${at}/content/application~1json/schema`, JSON.parse(answer.text), `${what}: body`);
}

/** `request`, with every answer checked against /openapi.json. */
export function checkingAnswers(
  request: (input: string | URL | globalThis.Request, init?: RequestInit) => Response | Promise<Response>,
) {
  return async (input: string | URL | globalThis.Request, init?: RequestInit): Promise<Response> => {
    const response = await request(input, init);
    const method = init?.method ?? (input instanceof globalThis.Request ? input.method : 'GET');
    const url = input instanceof globalThis.Request ? input.url : String(input);
    // Only answers the document describes are read ahead of the test (pages stream).
    if (isChecked(method, url))
      checkAnswer(method, url, {
        status: response.status,
        headers: response.headers,
        text: await response.clone().text(),
      });
    return response;
  };
}

/** Asserts that a webhook delivery is one of the events /openapi.json describes, with its headers. */
export function checkDelivery(headers: Record<string, string | string[] | undefined>, body: string): void {
  const event = JSON.parse(body);
  const at = pointer('webhooks', String(event.type), 'post');
  assert.ok((OPENAPI.webhooks as Json)[event.type], `webhook of a type /openapi.json does not list: ${event.type}`);
  for (const { name } of lookup(at).parameters as Json[])
    assert.ok(headers[name], `webhook ${event.type}: header ${name} missing`);
  expectValid(`${at}/requestBody/content/application~1json/schema`, event, `webhook ${event.type}`);
}
