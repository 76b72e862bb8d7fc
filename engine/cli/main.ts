// Entry point of `schedlab` (bin/schedlab.js registers tsx and imports this file).
import { main } from './cli.ts';

process.exitCode = await main(process.argv.slice(2));
