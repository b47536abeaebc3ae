/**
 * POST saveanswers_with_files with upload progress (fetch cannot report it, hence XMLHttpRequest).
 * Same headers as the API client: anti-CSRF, device id, bearer token of the app shell.
 */
import { DEVICE_HEADER, saveAnswersWithFilesResponseSchema } from '@attesta/contract';
import { ApiError, leaveIfSessionGone } from '../../../lib/api-client';
import { getAuthToken } from '../../../lib/auth-token';
import { getDeviceId } from '../../../lib/device-id';
import { SAVE_WITH_FILES_URL, type SaveFilesResponse } from './exam-api';

export interface UploadRequest {
  examWorkId: number;
  variantTaskId: number;
  /** The files already attached that stay attached. */
  fileIds: number[];
  seq: number;
  files: File[];
  onProgress?: (share: number) => void;
}

export function buildUploadForm({ examWorkId, variantTaskId, fileIds, seq, files }: UploadRequest): FormData {
  const form = new FormData();
  form.append(
    'answers',
    JSON.stringify({ examWorkId, answers: [{ variantTaskId, value: { fileIds }, seq }] }),
  );
  for (const file of files) form.append(`file:${variantTaskId}`, file, file.name);
  return form;
}

export function uploadAnswerFiles(request: UploadRequest): Promise<SaveFilesResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', SAVE_WITH_FILES_URL);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.setRequestHeader(DEVICE_HEADER, getDeviceId());
    const token = getAuthToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) request.onProgress?.(e.loaded / e.total);
    };
    xhr.onerror = () =>
      reject(new ApiError({ status: 0, code: 'network_error', message: 'Network error while uploading' }));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = saveAnswersWithFilesResponseSchema.safeParse(body);
        if (parsed.success) return resolve(parsed.data);
        return reject(
          new ApiError({ status: xhr.status, code: 'invalid_response', message: 'Unexpected answer' }),
        );
      }
      const b = (body ?? {}) as { code?: string; message?: string };
      const error = new ApiError({
        status: xhr.status,
        statusText: xhr.statusText,
        code: b.code ?? `http_${xhr.status}`,
        message: b.message ?? xhr.statusText,
      });
      leaveIfSessionGone(error);
      reject(error);
    };
    xhr.send(buildUploadForm(request));
  });
}
