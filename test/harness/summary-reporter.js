// Ends the run with one plain line, "N passed, N failed, N skipped", that any CI can read,
// and one naming what still keeps jest's own process alive (jest.config.js forces the exit;
// this line is how the handle that made that necessary gets found).
class SummaryReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(`tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`);
    const open = process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap');
    process.stdout.write(`open in jest's process at the end: ${open.length === 0 ? 'nothing' : open.join(', ')}\n`);
  }
}
module.exports = SummaryReporter;
