/** The integration API keys' calls (under /api/admin/apiKeys), admin only. */
import type { ApiKeyCreateBody } from '@attesta/contract';
import { call } from '../../../lib/call';

const inline = { suppressRedirect: true } as const;

export const apiKeyKeys = { list: ['admin', 'api-keys'] as const };

export const listApiKeys = () => call('GET /api/admin/apiKeys', {}, inline);
export const createApiKey = (body: ApiKeyCreateBody) => call('POST /api/admin/apiKeys', { body }, inline);
export const revokeApiKey = (id: number) =>
  call('POST /api/admin/apiKeys/{id}/revoke', { params: { id } }, inline);
