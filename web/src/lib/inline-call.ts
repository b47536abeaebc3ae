import { apiClient, ApiError } from './api-client';

/**
 * Runs a call whose failure the page shows inline (it was made with `suppressRedirect`). Only a
 * gone session still leaves the page, for the unauthorized page.
 */
export async function inlineCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) apiClient.redirectFor(error);
    throw error;
  }
}
