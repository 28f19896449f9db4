import { getReference } from '../../api/reference.js';
import { readOnlyCommand } from '../shared/read-only.js';

export default readOnlyCommand(getReference, 'No reference codes.');
