/**
 * The OpenAPI `operationId` of a call, derived from its method and path so it never needs writing
 * by hand and never changes while the call does not: `GET /api/exam/test/examwork/{id}/blanks` →
 * `getExamTestExamworkByIdBlanks`. Code generators name their methods by it. The server refuses to
 * start if two calls would share one (`server/src/plugins/openapi.ts`).
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      return param ? `by-${param}` : segment;
    })
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean));
  const pascal = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return method.toLowerCase() + pascal;
}
