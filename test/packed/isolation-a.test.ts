import { isolationFile } from './isolation.js';

isolationFile('a', 'b');
