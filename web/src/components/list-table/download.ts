/** File downloads: a fetch with the session (cookie or bearer) and the anti-CSRF header, saved as a blob. */
import { errorBodySchema } from '@attesta/contract';
import { ApiError } from '../../lib/api-client';
import { getAuthToken } from '../../lib/auth-token';
import { saveBlob } from './csv';

/** `attachment; filename*=UTF-8''…` or `filename="…"`. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', headers });
  } catch (error) {
    throw new ApiError({
      status: 0,
      code: 'network_error',
      message: error instanceof Error ? error.message : String(error),
      cause: error,
    });
  }
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const parsed = errorBodySchema.safeParse(body);
    throw new ApiError({
      status: response.status,
      statusText: response.statusText,
      code: parsed.success ? parsed.data.code : `http_${response.status}`,
      message: parsed.success ? parsed.data.message : response.statusText || `HTTP ${response.status}`,
    });
  }
  saveBlob(await response.blob(), fileNameFrom(response.headers.get('content-disposition'), fallbackName));
}
