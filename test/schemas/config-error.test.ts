// One ConfigError for the harness and the reference server (schemas/config-error.ts): the harness's
// options, the reference server's configuration and the CLIs that print them all use the one class.
import { describe, expect, it } from 'vitest';
import { ConfigError as HarnessConfigError, resolveOptions } from '../../harness/options.ts';
import { ConfigError as ServerConfigError, parseConfigText } from '../../reference-server/index.ts';
import { ConfigError } from '../../schemas/config-error.ts';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('ConfigError', () => {
  it('is one class, exported by the harness and by the reference server', () => {
    expect(HarnessConfigError).toBe(ConfigError);
    expect(ServerConfigError).toBe(ConfigError);
  });

  it('holds one mistake as its message and its only problem', () => {
    const error = new ConfigError('--rate must be <n>/m');
    expect(error.message).toBe('--rate must be <n>/m');
    expect(error.problems).toEqual(['--rate must be <n>/m']);
    expect(error.name).toBe('ConfigError');
    expect(error).toBeInstanceOf(Error);
  });

  it('lists every mistake of one configuration under its heading', () => {
    const error = new ConfigError('invalid configuration', ['a: must be an object', 'b: unknown field']);
    expect(error.message).toBe('invalid configuration:\n  - a: must be an object\n  - b: unknown field');
    expect(error.problems).toEqual(['a: must be an object', 'b: unknown field']);
  });

  it('is what a bad harness option and a bad server config file throw', () => {
    const option = thrown(() => resolveOptions({ flag: { level: 'loud' }, env: {}, file: {} }));
    expect(option).toBeInstanceOf(ConfigError);
    const file = thrown(() => parseConfigText('{"port": -1}', 'c.json'));
    expect(file).toBeInstanceOf(ConfigError);
    expect((file as ConfigError).message).toMatch(
      /^invalid reference server configuration:\n {2}- c\.json: port/,
    );
  });
});
