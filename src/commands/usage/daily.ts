import { getUsage } from '../../api/account.js';
import { readOnlyCommand } from '../shared/read-only.js';

export default readOnlyCommand(getUsage, 'No usage in the last 30 days.');
