/**
 * Files from the API (xlsx, pdf, result files): fetched with the session cookie and the anti-CSRF
 * header like every other call, then saved through a blob link under the server's file name.
 */
import { errorBodySchema } from '@attesta/contract';
import { ApiError, type QueryValue, leaveIfSessionGone } from '../../lib/api-client';
import { getAuthToken } from '../../lib/auth-token';

function withQuery(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export interface RawRequest {
  method?: 'GET' | 'POST';
  query?: Record<string, QueryValue>;
  body?: string;
  contentType?: string;
}

/** A call whose body or answer is not JSON. Failures are thrown as ApiError; only a gone session navigates. */
export async function rawRequest(path: string, options: RawRequest = {}): Promise<Response> {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
  if (options.contentType) headers['Content-Type'] = options.contentType;
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body,
      credentials: 'same-origin',
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ApiError({ status: 0, code: 'network_error', message, cause: error });
  }
  if (response.ok) return response;
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = undefined;
  }
  const parsed = errorBodySchema.safeParse(body);
  throw leaveIfSessionGone(
    new ApiError({
      status: response.status,
      statusText: response.statusText,
      code: parsed.success ? parsed.data.code : `http_${response.status}`,
      message: parsed.success ? parsed.data.message : response.statusText || `HTTP ${response.status}`,
      fieldErrors: parsed.success ? parsed.data.errors : [],
    }),
  );
}

/** `attachment; filename="a.xlsx"; filename*=UTF-8''%D0%BA.xlsx` → the best name it gives. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = plain?.[2] ?? plain?.[1];
  return name ? name.trim() : null;
}

export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** GET a file and save it; returns the file name used. */
export async function downloadFile(
  path: string,
  query: Record<string, QueryValue> | undefined,
  fallbackName: string,
): Promise<string> {
  const response = await rawRequest(path, { query });
  const blob = await response.blob();
  const name = fileNameFromDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  saveBlob(blob, name);
  return name;
}
