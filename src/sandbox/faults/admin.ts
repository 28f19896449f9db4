/** The admin route's faults (`/_sandbox/v1/faults…`): list, add, remove, clear, change the rates. */
import type { IncomingMessage } from 'node:http';
import type { AdminRouteName } from '../../schemas/routes.js';
import { SandboxError, validationError } from '../errors.js';
import type { Faults } from './index.js';
import type { FaultError } from './rules.js';

/** A refused fault change as the admin route answers it: 422 naming each field and rule, or 404. */
export function faultFailure(err: FaultError): SandboxError {
  if (err.code === 'validation_failed') return validationError(err.issues);
  if (err.code === 'fault_not_found') return new SandboxError(404, 'fault_not_found', err.message, 'id');
  return new SandboxError(422, err.code, err.message);
}

/** Answers one of the fault routes; `body` reads the request's JSON object body. */
export async function faultRoute(
  name: Extract<AdminRouteName, `sandbox.fault${string}`>,
  req: IncomingMessage,
  params: Record<string, string>,
  faults: Faults,
  body: (req: IncomingMessage) => Promise<Record<string, unknown>>,
): Promise<{ status: number; data: unknown }> {
  switch (name) {
    case 'sandbox.faults.list':
      return { status: 200, data: faults.list() };
    case 'sandbox.faults.add':
      return { status: 201, data: faults.add(await body(req)) };
    case 'sandbox.fault.remove':
      return { status: 200, data: { removed: faults.rules.remove(params.id as string) } };
    case 'sandbox.faults.clear':
      return { status: 200, data: { removed: faults.clear() } };
    case 'sandbox.faults.rates':
      return { status: 200, data: faults.setRates(await body(req)) };
  }
}
