// Entry point of `schedlab` (bin/schedlab.js registers tsx and imports this file).
import { main } from './cli.ts';

process.exitCode = await main(process.argv.slice(2));
// Everything is written and closed by now; what still holds the process (a worker stuck in a
// user module after --time-limit) is ended, with a second for pipes to drain.
setTimeout(() => process.exit(), 1000).unref();
