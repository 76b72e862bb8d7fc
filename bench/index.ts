// `npm run bench`: runs every benchmark module in turn (or those named on the command line) and
// ends with one `BENCH_JSON {...}` line holding every figure, so runs compare across commits.
import { BenchReport } from './report.ts';
import { SUITE_NAMES, SUITES } from './suites.ts';

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !SUITE_NAMES.includes(w));
if (unknown.length > 0) {
  console.error(`bench: no suite ${unknown.join(', ')} (suites: ${SUITE_NAMES.join(', ')})`);
  process.exit(2);
}
const report = new BenchReport();
for (const [name, load] of Object.entries(SUITES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n# ${name}`);
  await (await load()).run(report);
}
console.log(`BENCH_JSON ${JSON.stringify(report.figures)}`);
