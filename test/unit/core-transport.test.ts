/** The transport pieces of the request core: the URL guard. */
import { describe, expect, it } from 'vitest';
import { serviceOf } from '../../src/api/core/transport.js';

describe('the URL guard', () => {
  it('takes http(s) base URLs without credentials, keeping the base path', () => {
    expect(serviceOf('https://api.example.com/v2/')).toEqual({ origin: 'https://api.example.com', basePath: '/v2' });
    expect(serviceOf('http://127.0.0.1:8787')).toEqual({ origin: 'http://127.0.0.1:8787', basePath: '' });
  });

  it('refuses other schemes and credentials in the URL', () => {
    for (const url of ['ftp://api.example.com', 'file:///etc/passwd', 'https://user:pass@api.example.com', 'https://token@api.example.com']) {
      expect(() => serviceOf(url)).toThrow('the request core needs an http(s) base URL without credentials');
    }
  });
});
