/**
 * The code under test: a web shop's little client of the Parcel API, as a shop would write it
 * (plain fetch, an Idempotency-Key per write, the same key again on a retry, cursors for the list).
 */
import { randomUUID } from 'node:crypto';

export interface Answer {
  status: number;
  // The envelope as sent; tests read the fields they assert.
  body: { data: Record<string, unknown> | null; error?: { code: string; message: string } };
  headers: Headers;
}

export class ShopClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
  ) {}

  async send(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const response = await fetch(this.baseUrl + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, body: (await response.json()) as Answer['body'], headers: response.headers };
  }

  async createParcel(courier: string, number: string, idempotencyKey = `order-${randomUUID()}`): Promise<string> {
    const answer = await this.send('POST', '/deliveries/v1/parcels', { courier, country: 'NL', postal_code: '1234AB', number }, idempotencyKey);
    if (answer.status !== 201) throw new Error(`create answered ${answer.status}`);
    return (answer.body.data as { entry_id: string }).entry_id;
  }

  /** Every parcel, a page of `limit` at a time, following next_cursor. */
  async allParcels(query: Record<string, string> = {}, limit = 1): Promise<Array<{ entry_id: string; courier: string; status: number }>> {
    const parcels = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams({ ...query, limit: String(limit), ...(cursor === null ? {} : { cursor }) });
      const answer = await this.send('GET', `/deliveries/v1/parcels?${params}`);
      if (answer.status !== 200) throw new Error(`list answered ${answer.status}`);
      const data = answer.body.data as { parcels: Array<{ entry_id: string; courier: string; status: number }>; next_cursor: string | null };
      parcels.push(...data.parcels);
      cursor = data.next_cursor;
    } while (cursor !== null);
    return parcels;
  }

  /** Reports a delivered attempt; on a 503 retries once with the same key and the same body. */
  async reportDelivered(entryId: string, timeAttempt: number): Promise<Answer[]> {
    const key = `attempt-${randomUUID()}`;
    const path = `/deliveries/v1/parcels/${entryId}/attempts`;
    const body = { time_attempt: timeAttempt, outcome: 0 };
    const first = await this.send('POST', path, body, key);
    if (first.status !== 503) return [first];
    return [first, await this.send('POST', path, body, key)];
  }
}
