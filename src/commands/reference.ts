import { readOnlyCommand } from '../command-kit/read-only.js';

export default readOnlyCommand('reference.get', 'No reference codes.');
