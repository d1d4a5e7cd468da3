// A mistake in how a run or a server was configured (a flag, an environment variable, a config file):
// the one error type of the harness and the reference server for it. A CLI prints its message and exits
// 2; it is never a verdict about a target.

export class ConfigError extends Error {
  /** Every mistake found, one line each: a config file reports all of its mistakes at once. */
  readonly problems: string[];

  /** One mistake (`message`), or every mistake of one configuration listed under `heading`. */
  constructor(message: string);
  constructor(heading: string, problems: readonly string[]);
  constructor(text: string, problems?: readonly string[]) {
    super(problems === undefined ? text : `${text}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
    this.problems = problems === undefined ? [text] : [...problems];
  }
}
