import * as z from 'zod/mini';
import { parcelCreateSchema, parcelPatchSchema } from '../../src/schemas/parcel.js';
import { deliveryAttemptSchema, statusEventSchema } from '/work/wt/pack/src/schemas/history.js';
console.log(JSON.stringify(z.toJSONSchema(parcelPatchSchema, { target: 'openapi-3.0' as any }), null, 1).slice(0, 1500));
console.log(JSON.stringify(z.toJSONSchema(deliveryAttemptSchema(() => 0), { io: 'input', unrepresentable: 'any' }), null, 1));
import {test} from 'vitest'; test('x',()=>{});
