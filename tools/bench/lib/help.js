// Imported first by every benchmark: `--help` (or `-h`) prints the script's leading comment, which
// says what it measures and how to run it, and exits without starting anything.
import { readFileSync } from 'node:fs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  const lines = readFileSync(process.argv[1], 'utf8').split('\n');
  const header = [];
  for (const line of lines.slice(lines[0]?.startsWith('#!') ? 1 : 0)) {
    if (!line.startsWith('//')) break;
    header.push(line.replace(/^\/\/ ?/, ''));
  }
  process.stdout.write(`${header.join('\n')}\n`);
  process.exit(0);
}
