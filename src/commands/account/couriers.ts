import { getCouriers } from '../../api/account.js';
import { readOnlyCommand } from '../shared/read-only.js';

export default readOnlyCommand(getCouriers, 'No couriers registered.');
