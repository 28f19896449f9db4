import { getUsage } from '../../api/account.js';
import { readOnlyCommand } from '../../command-kit/read-only.js';

export default readOnlyCommand(getUsage, 'No usage in the last 30 days.');
