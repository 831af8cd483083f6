/**
 * `npm run bench`: runs every suite in test/bench/suites/ (each module exports `suite: BenchSuite`)
 * and prints its figures, with ratios against the named peers. `npm run bench -- sse chat` runs only
 * suites whose name contains one of the words.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatFigure, meetsGoal, type BenchSuite } from './report';

async function main(): Promise<void> {
  const filters = process.argv.slice(2).map((word) => word.toLowerCase());
  const directory = join(__dirname, 'suites');
  const suites: BenchSuite[] = readdirSync(directory)
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => (require(join(directory, name)) as { suite: BenchSuite }).suite)
    .filter((suite) => filters.length === 0 || filters.some((word) => suite.name.toLowerCase().includes(word)));
  let missed = 0;
  for (const suite of suites) {
    console.log(`\n== ${suite.name}`);
    for (const figure of await suite.run()) {
      console.log(`  ${formatFigure(figure)}`);
      if (meetsGoal(figure) === false) missed++;
    }
  }
  console.log(`\n${missed === 0 ? 'every goal met' : `${missed} goal(s) not met`}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
