import { getOverview } from '../api/account.js';
import { readOnlyCommand } from '../command-kit/read-only.js';

export default readOnlyCommand(getOverview, 'Nothing to show.');
