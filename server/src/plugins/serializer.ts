import { serializerCompiler } from 'fastify-type-provider-zod';

/*
 * Answers go out through their zod schema (fastify-type-provider-zod: checked, unknown keys
 * dropped, then JSON). An answer object that many requests share unchanged (a variant as every
 * participant of it sees it) is marked `reusable`: each route's serializer then encodes it once
 * and answers the same text again, instead of checking the same object for every participant.
 */

const reusables = new WeakSet<object>();

/**
 * Marks an answer that is never changed again: each route serializes it once. The object itself
 * is frozen (its nested values may be shared with memoised rows, so they are left alone).
 */
export function reusable<T extends object>(value: T): T {
  reusables.add(Object.freeze(value));
  return value;
}

/** The zod serializer, with each reusable answer's text kept beside it (per route and status). */
export const cachingSerializerCompiler: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  const texts = new WeakMap<object, string>();
  return (data: unknown) => {
    if (typeof data !== 'object' || data === null || !reusables.has(data)) return serialize(data);
    let text = texts.get(data);
    if (text === undefined) texts.set(data, (text = serialize(data)));
    return text;
  };
};
