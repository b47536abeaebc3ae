import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cachingSerializerCompiler, reusable } from './serializer.js';

const schema = z.object({ id: z.number(), name: z.string() });
const compile = () =>
  cachingSerializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never) as (
    data: unknown,
  ) => string;

describe('the caching serializer', () => {
  it('checks every answer through its schema: unknown keys dropped, a wrong shape refused', () => {
    const serialize = compile();
    expect(serialize({ id: 1, name: 'a', secret: 's' })).toBe('{"id":1,"name":"a"}');
    expect(() => serialize({ id: 'x' })).toThrow();
  });

  it('serializes a reusable answer once, frozen, and any other answer afresh', () => {
    const serialize = compile();
    const shared = reusable({ id: 2, name: 'b', secret: 's' });
    expect(Object.isFrozen(shared)).toBe(true);
    expect(serialize(shared)).toBe('{"id":2,"name":"b"}');
    expect(serialize(shared)).toBe('{"id":2,"name":"b"}');
    const plain = { id: 3, name: 'c' };
    expect(serialize(plain)).toBe('{"id":3,"name":"c"}');
    plain.name = 'd';
    expect(serialize(plain)).toBe('{"id":3,"name":"d"}');
  });
});
