import { readOnlyCommand } from '../../command-kit/read-only.js';

export default readOnlyCommand('usage.daily', 'No usage in the last 30 days.');
