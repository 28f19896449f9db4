import { describe, expect, it } from 'vitest';
import { headerFlags, methodArg, pathArg, queryFlags } from '../../src/args/api-request.js';
import { UsageError } from '../../src/errors.js';
import { codeName } from '../../src/io/format.js';

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('parcels api: METHOD and PATH', () => {
  it('takes a method in any case, and refuses others', () => {
    expect(methodArg('patch')).toBe('PATCH');
    expect(usageError(() => methodArg('FETCH')).message).toBe('METHOD must be one of GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE (got "FETCH")');
  });

  it('takes a path with or without its leading slash, and a query string', () => {
    expect(pathArg('deliveries/v1/parcels')).toEqual({ path: '/deliveries/v1/parcels', query: [] });
    expect(pathArg('/deliveries/v1/parcels?limit=5&courier=A%20B')).toEqual({
      path: '/deliveries/v1/parcels',
      query: [
        ['limit', '5'],
        ['courier', 'A B'],
      ],
    });
  });

  it.each(['https://evil.example/x', 'HTTP://evil.example', '//evil.example/x', 'mailto:a@b', '/a b', '/a#frag', '/a\u0000b'])('refuses %j', (path) => {
    expect(usageError(() => pathArg(path)).field).toBe('PATH');
  });
});

describe('parcels api: headers and query', () => {
  it('splits name:value, canonicalises names, and hands Idempotency-Key and If-Match back on their own', () => {
    expect(headerFlags(['accept: text/plain', 'X-Trace:abc', 'idempotency-key: k-12345678', 'If-Match: "v1"'])).toEqual({
      headers: { Accept: 'text/plain', 'X-Trace': 'abc' },
      idempotencyKey: 'k-12345678',
      ifMatch: '"v1"',
    });
  });

  it.each([
    ['Authorization: Bearer x', "--header cannot set Authorization: parcels sends the profile's key itself, and only to its base URL"],
    ['host: evil.example', '--header cannot set host: the HTTP client sets it'],
    ['X-A: a\r\nX-B: b', '--header X-A must not contain control characters (CR, LF, tab, …)'],
    ['no colon', '--header must be name:value with a valid header name (got "no colon")'],
    ['bad name: x', '--header must be name:value with a valid header name (got "bad name: x")'],
  ])('refuses %j', (header, message) => {
    expect(usageError(() => headerFlags([header])).message).toBe(message);
  });

  it('query parameters are key=value', () => {
    expect(queryFlags(['limit=5', 'q=a=b'])).toEqual([
      ['limit', '5'],
      ['q', 'a=b'],
    ]);
    expect(usageError(() => queryFlags(['limit'])).message).toBe('--query must be key=value (got "limit")');
  });
});

describe('names without a reference answer: the spec\'s own meanings', () => {
  it('statuses 0-3, outcomes 0-4 and reasons 0-10 are named; statuses 4 and 5, location types and service codes are not', () => {
    expect([0, 1, 2, 3, 4, 5].map((code) => codeName('status', code))).toEqual(['registered', 'picked_up', 'in_transit', 'in_delivery', undefined, undefined]);
    expect([0, 1, 2, 3, 4].map((code) => codeName('outcome', code))).toEqual(['delivered', 'failed', 'delivered_elsewhere', 'refused', 'rescheduled']);
    expect(Array.from({ length: 11 }, (_, code) => codeName('reason', code))).toEqual([
      'no_reason',
      'not_at_home',
      'address_not_found',
      'no_access',
      'refused',
      'damaged',
      'no_time',
      'vehicle_traffic',
      'weather',
      'business_closed',
      'other',
    ]);
    expect(codeName('location_type', 1)).toBeUndefined();
    expect(codeName('service_type', 1)).toBeUndefined();
  });
});
