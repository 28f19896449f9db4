import { readOnlyCommand } from '../command-kit/read-only.js';

export default readOnlyCommand('overview.get', 'Nothing to show.');
