/**
 * How a sandbox proves it holds its admin token before a client sends it (docs/security.md). The
 * client sends a fresh nonce to GET /_sandbox/v1/proof?nonce=…; the sandbox answers
 * HMAC-SHA256(token, nonce, the address and port the connection reached it on). Only the holder of
 * the token can answer, and an answer relayed from the real sandbox by a process listening at
 * another address names the real sandbox's address, not the one the client connected to, so it
 * does not match. The token is then sent only to the address that proved it.
 */
import { createHmac } from 'node:crypto';
import { anyRouteByName } from './routes.js';

export const ADMIN_PROOF_PATH = anyRouteByName('sandbox.proof').path;
/** A nonce: 16 to 128 base64url characters. */
export const ADMIN_PROOF_NONCE = /^[A-Za-z0-9_-]{16,128}$/;

/** An address as both ends name it: IPv4-mapped IPv6 (`::ffff:127.0.0.1`, `::ffff:7f00:1`) as its IPv4 form, brackets off, lower case. */
export function proofAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare.startsWith('::ffff:') && bare.includes('.')) return bare.slice(7);
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(bare);
  if (hex === null) return bare;
  const [high, low] = [parseInt(hex[1] as string, 16), parseInt(hex[2] as string, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** The proof, hex: HMAC-SHA256 keyed by the token over the nonce, the address and the port. */
export function adminProof(token: string, nonce: string, address: string, port: number): string {
  return createHmac('sha256', token).update(`parcels-sandbox-admin-proof\n${nonce}\n${proofAddress(address)}\n${port}`).digest('hex');
}
