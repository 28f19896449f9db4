import type { IncomingMessage } from 'node:http';
import { SandboxError, badRequest } from './errors.js';

/** Request bodies above this many bytes are refused with 400 (reading stops at the cap). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The client went away before its body was in: nothing to answer, nothing to record. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
}

/** A body route needs Content-Type application/json and a body of at most 1 MiB. */
export async function readJsonBody(req: IncomingMessage): Promise<Buffer> {
  const type = req.headers['content-type'];
  if (type === undefined) throw badRequest('unsupported_content_type', 'send the body as JSON with Content-Type: application/json', 'Content-Type');
  const [media, ...params] = type.split(';').map((s) => s.trim().toLowerCase());
  if (media !== 'application/json') {
    throw badRequest('unsupported_content_type', `Content-Type must be application/json, not ${type}`, 'Content-Type');
  }
  for (const p of params) {
    if (p.startsWith('charset=') && !/^charset="?utf-8"?$/.test(p)) {
      throw badRequest('unsupported_content_type', 'JSON bodies must be UTF-8', 'Content-Type');
    }
  }
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  return readBody(req, MAX_BODY_BYTES);
}

function tooLarge(): SandboxError {
  return new SandboxError(400, 'body_too_large', `request body exceeds ${MAX_BODY_BYTES} bytes`, undefined, undefined, { Connection: 'close' });
}

function readBody(req: IncomingMessage, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        cleanup();
        req.pause(); // stop reading; the answer closes the connection
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    // An error or a close before 'end' on a request stream means the client disconnected (or the
    // server's request timeout destroyed the socket) mid-body.
    const onGone = () => {
      cleanup();
      reject(new ClientGoneError('the client disconnected before the request body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}
