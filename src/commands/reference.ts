import { getReference } from '../api/reference.js';
import { readOnlyCommand } from '../command-kit/read-only.js';

export default readOnlyCommand(getReference, 'No reference codes.');
