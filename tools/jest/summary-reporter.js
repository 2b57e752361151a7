/**
 * Prints one plain closing line after a Jest run, `N passed, N failed, N skipped`, so CI logs
 * end with a count any reader (or tool) can find.
 */
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\n${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}
