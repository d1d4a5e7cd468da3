// Colour for the console reporter: only on a TTY, never when NO_COLOR is set (no-color.org) or
// TERM is dumb, so piped output and CI logs stay plain text.
import type { Verdict } from '../../core/types.ts';

export function useColour(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  if (!isTTY) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}

export type Paint = (text: string) => string;

const CODES = {
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  grey: 90,
  bold: 1,
} as const;
export type Style = keyof typeof CODES;

export interface Palette {
  style(style: Style, text: string): string;
  verdict(verdict: Verdict | 'pass' | 'fail' | 'error', text: string): string;
}

const VERDICT_STYLE: Record<Verdict, Style> = {
  pass: 'green',
  fail: 'red',
  warn: 'yellow',
  info: 'blue',
  'not-applicable': 'grey',
  'not-exercised': 'magenta',
  error: 'red',
};

export function palette(enabled: boolean): Palette {
  const style = (s: Style, text: string): string => (enabled ? `\u001b[${CODES[s]}m${text}\u001b[0m` : text);
  return { style, verdict: (v, text) => style(VERDICT_STYLE[v], text) };
}
