import { z } from 'zod';

export const sortSchema = z.object({
  field: z.string().min(1).max(64),
  dir: z.enum(['asc', 'desc']).default('asc'),
});

/** `POST .../list` body (docs/design.md §8). `filter` is list-specific. */
export const listRequestSchema = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(500).default(50),
  sort: z.union([sortSchema, z.array(sortSchema).max(5)]).optional(),
  filter: z.record(z.string(), z.unknown()).optional(),
});
export type ListRequest = z.infer<typeof listRequestSchema>;

export function listResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int().min(0) });
}
export interface ListResponse<T> {
  items: T[];
  total: number;
}
