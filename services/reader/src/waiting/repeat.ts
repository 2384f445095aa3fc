/** Runs `check` every `ms` until the returned stop is called (tests pass a hand-moved one). */
export type Repeat = (ms: number, check: () => void) => () => void;

/** The real timer, unref'd: a watch never keeps the process alive. */
export const repeatEvery: Repeat = (ms, check) => {
  const timer = setInterval(check, ms);
  timer.unref();
  return () => clearInterval(timer);
};
