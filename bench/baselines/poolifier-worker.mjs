// poolifier's worker file for the pool benchmark: the very same task functions the other pools
// load (bench/pool-tasks.mjs), as named task functions.
import { ThreadWorker } from 'poolifier';
import { factorial, inc } from '../pool-tasks.mjs';

export default new ThreadWorker({ inc, factorial });
