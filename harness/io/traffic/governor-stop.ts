// What every refusal of the run's governor is: a wait it will not make or a spend it will not allow
// (the run's, the pace's or the turns' budget spent), or a request it will not let go on (rate
// limited past every wait, no task slot). A stop is never a finding: the check is not-exercised or an
// error (harness/check/run-check.ts). Each stop is a class that extends GovernorStop, listed once in
// GOVERNOR_STOPS (governor.ts), from which the worker link rebuilds them in the workers.

/** A governor's refusal to wait, to spend or to go on: never a finding. */
export abstract class GovernorStop extends Error {}

/** Whether `e` is a refusal of the governor (any subclass of GovernorStop). */
export function isGovernorStop(e: unknown): e is GovernorStop {
  return e instanceof GovernorStop;
}
