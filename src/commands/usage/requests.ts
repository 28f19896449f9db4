import { readOnlyCommand } from '../../command-kit/read-only.js';

export default readOnlyCommand('usage.requests', 'No requests in the last 30 days.', { view: 'requests' });
