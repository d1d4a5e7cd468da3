// How much the console reporter says (--quiet, --verbose): the verdicts whose findings it lists and
// how much of each it shows grow from `quiet` to `normal` to `verbose` (console-summary.ts).
export type ConsoleMode = 'quiet' | 'normal' | 'verbose';
