import { getUsageRequests } from '../../api/account.js';
import { readOnlyCommand } from '../../command-kit/read-only.js';

export default readOnlyCommand(getUsageRequests, 'No requests in the last 30 days.', { view: 'requests' });
