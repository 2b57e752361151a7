// The Go oracle of a development check (tools/*-oracle), run as a child process that answers one
// JSON line for each JSON line it is given, and the checks' command-line options.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The value of `--name=value` on the command line, or `fallback`. */
export function option(name, fallback) {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : fallback;
}

/** {@link option} as a number. */
export const numberOption = (name, fallback) => Number(option(name, fallback));

/**
 * Starts the oracle binary at `url` (a file URL). `ask(request)` sends one request and resolves
 * with its answer, in order; an answer `{fatal}` (the oracle could not read the request) throws.
 * `close()` ends its input, and so the oracle.
 */
export function startOracle(url) {
  const child = spawn(fileURLToPath(url), [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async ask(request) {
      child.stdin.write(`${JSON.stringify(request)}\n`);
      const { value, done } = await lines.next();
      if (done) throw new Error(`oracle ${fileURLToPath(url)} ended`);
      const answer = JSON.parse(value);
      if (answer.fatal) throw new Error(`oracle: ${answer.fatal}`);
      return answer;
    },
    close: () => child.stdin.end(),
  };
}
