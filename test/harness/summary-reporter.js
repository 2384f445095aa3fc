// Ends the run with one plain line, "N passed, N failed, N skipped", that any CI can read,
// and one naming what is still open in jest's own process. On two cores jest runs every test
// file in that process (one worker at most means in band), so a suite that leaves a timer,
// server or client open shows here, and would keep jest from exiting: no forceExit hides it.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(`tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`);
    const open = process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap');
    process.stdout.write(`open in jest's process at the end: ${open.length === 0 ? 'nothing' : open.join(', ')}\n`);
  }
}
module.exports = SummaryReporter;
