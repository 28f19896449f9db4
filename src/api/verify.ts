import { ApiError } from '../errors.js';
import type { ApiClient } from './http.js';

/** What one read request with a key showed. */
export interface KeyCheck {
  /** The key works but lacks the scope the check needs. */
  missingScope?: 'deliveries:read';
}

/**
 * One read request with a key (GET couriers). A 401 is thrown as an ApiError saying the key was
 * refused; a 403 means the key is valid but lacks the read scope; anything else is thrown as is.
 */
export async function verifyKey(client: ApiClient, signal?: AbortSignal): Promise<KeyCheck> {
  try {
    await client.route('couriers.list', { signal });
    return {};
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return { missingScope: 'deliveries:read' };
    if (error instanceof ApiError && error.status === 401) {
      // No hint here: describeError's 401 hint repeats the login command as the user typed it.
      throw new ApiError(401, error.code, 'the API key was refused (invalid or expired); nothing was saved', error.body);
    }
    throw error;
  } finally {
    await client.close();
  }
}
