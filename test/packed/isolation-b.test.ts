import { isolationFile } from './isolation.js';

isolationFile('b', 'a');
