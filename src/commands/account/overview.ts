import { getOverview } from '../../api/account.js';
import { readOnlyCommand } from '../shared/read-only.js';

export default readOnlyCommand(getOverview, 'Nothing to show.');
