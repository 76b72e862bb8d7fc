// workerpool's worker file for the pool benchmark: registers the very same task functions the
// other pools load (bench/pool-tasks.mjs).
import workerpool from 'workerpool';
import { factorial, inc } from '../pool-tasks.mjs';

workerpool.worker({ inc, factorial });
