/**
 * The typed client of the contract: `call('GET /api/exam/test/examwork/{id}', { params: { id } })`
 * fills the path from its row, sends query and body as the row's schemas type them and parses the
 * answer with the row's response schema. No path or schema is written a second time in a feature.
 * A body that is a document rather than JSON (the XML import) is sent as is with the `raw` option.
 *
 * The participant's calls (`PARTICIPANT_CALLS`) are the exception in a production build: their
 * answers are not parsed here, so the exam's first chunks carry none of their schemas (issue 24,
 * docs/ARCHITECTURE.md «Runtime validation of answers»). The server sends every answer through the
 * same row's response schema (fastify-type-provider-zod's serializer: checked, unknown keys
 * dropped, a mismatch is a 500 and never data), and these schemas have no transform a second parse
 * would redo; in the dev server and in every web test they are parsed as before, so a feature that
 * reads a field the row does not have still fails there.
 */
import {
  PARTICIPANT_CALL_SCHEMAS,
  type CallKey,
  type CallSchemas,
  type CallSchemasOf,
} from '@attesta/contract';
import type { z } from 'zod';
import { apiClient, type ApiClient, type HttpMethod, type RequestOptions } from './api-client';
import { PARTICIPANT_CALLS } from './participant-calls';

type Field<K extends CallKey, F extends keyof CallSchemas> =
  CallSchemasOf<K> extends { [P in F]: infer S extends z.ZodType } ? S : never;

/** Path params as the server reads them (ids as numbers, enums as their values). */
type ParamsOf<K extends CallKey> = [Field<K, 'params'>] extends [never]
  ? never
  : z.output<Field<K, 'params'>>;
/** Query values travel as text: a number or boolean is sent as its text, which the server's schema reads. */
type Textual<T> = { [P in keyof T]?: T[P] | number | boolean };
type QueryOf<K extends CallKey> = [Field<K, 'query'>] extends [never]
  ? never
  : Textual<z.input<Field<K, 'query'>>>;
type BodyOf<K extends CallKey> = [Field<K, 'body'>] extends [never] ? never : z.input<Field<K, 'body'>>;

/** What a call returns: the parsed 200 answer of its row. */
export type CallResult<K extends CallKey> = [Field<K, 'response'>] extends [never]
  ? unknown
  : z.output<Field<K, 'response'>>;

type Slot<Name extends string, T> = [T] extends [never] ? { [P in Name]?: never } : { [P in Name]: T };
export type CallInput<K extends CallKey> = Slot<'params', ParamsOf<K>> &
  Partial<Slot<'query', QueryOf<K>>> &
  Slot<'body', BodyOf<K>>;

export type CallOptions = Omit<
  RequestOptions<unknown>,
  'method' | 'query' | 'body' | 'parse' | 'contentType'
> & {
  /**
   * Send the body as is with this Content-Type instead of as JSON: a row whose body is a document
   * (`POST /api/ParticipantTest/participantTestImportFromXml` takes the XML file itself). The body
   * is still typed by the row (a string or a Blob) and the answer parsed by its response schema.
   */
  raw?: { contentType: string };
};

/** The URL of a call with its path params filled in (for links and downloads). */
export function callPath(key: CallKey, params: Record<string, unknown> = {}): string {
  const path = key.slice(key.indexOf(' ') + 1);
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${key}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

type SchemaTable = Record<CallKey, CallSchemas>;

/**
 * Every call's schemas, loaded with the first call that is not a participant's (a chunk of its
 * own): the participant's path carries only its own calls' schemas (docs/BENCHMARKS.md, issue 24).
 */
let allSchemas: Promise<SchemaTable> | undefined;
function loadAllSchemas(): Promise<SchemaTable> {
  // A chunk that failed to load (offline) is asked for again by the next call, not remembered.
  allSchemas ??= import('./call-schemas').then(
    (m) => m.CALL_SCHEMAS as SchemaTable,
    (err: unknown) => {
      allSchemas = undefined;
      throw err;
    },
  );
  return allSchemas;
}

export function call<K extends CallKey>(
  key: K,
  input: CallInput<K>,
  options: CallOptions = {},
  client: ApiClient = apiClient,
): Promise<CallResult<K>> {
  if (PARTICIPANT_CALLS.has(key)) {
    // In a production build the bundler drops the branch and with it the participant's schemas.
    const own = import.meta.env.PROD ? undefined : (PARTICIPANT_CALL_SCHEMAS as Partial<SchemaTable>)[key];
    return send(key, own ?? {}, input, options, client);
  }
  return loadAllSchemas().then((all) => send(key, all[key], input, options, client));
}

function send<K extends CallKey>(
  key: K,
  /** The row's answer schemas; none for a participant's call in a production build. */
  schemas: { response?: z.ZodType; accepted?: z.ZodType },
  input: CallInput<K>,
  options: CallOptions,
  client: ApiClient,
): Promise<CallResult<K>> {
  const method = key.slice(0, key.indexOf(' ')) as HttpMethod;
  const { params, query, body } = input as {
    params?: Record<string, unknown>;
    query?: object;
    body?: unknown;
  };
  // A 202 answer (work taken) is read by its schema like a 200 one; a file or stream is not JSON.
  const response = schemas.response ?? schemas.accepted;
  const { raw, ...rest } = options;
  return client.request<CallResult<K>>(callPath(key, params), {
    ...rest,
    ...(raw ? { contentType: raw.contentType } : {}),
    method,
    query: query as RequestOptions<unknown>['query'],
    body: method === 'GET' || method === 'DELETE' ? undefined : (body ?? {}),
    parse: response ? (data) => response.parse(data) as CallResult<K> : undefined,
  });
}
