// Builds a Variant from a requirement id and a proxy configuration: the name is derived from the id
// and the expected verdict from the ledger level (MUST -> fail, SHOULD -> warn).
import { getRequirement } from '../requirements/index.ts';
import { startMutant, type MutantOptions, type ProxyHooks } from './proxy.ts';
import type { Area, Variant } from './types.ts';

/** `7/method-not-found-code` -> `7-method-not-found-code` */
export function idSlug(id: string): string {
  return id.replace(/[/.]/g, '-');
}

/** The verdict a broken requirement of this id must get. */
export function expectedVerdict(id: string): 'fail' | 'warn' {
  const { level } = getRequirement(id);
  if (level === 'MUST') return 'fail';
  if (level === 'SHOULD') return 'warn';
  throw new Error(`${id} is ${level}: a mutant can only break a MUST or SHOULD requirement`);
}

export interface MutantSpec {
  breaks: string;
  /** what the variant does, kebab-case; the name is `<id slug>--<slug>` */
  slug: string;
  area: Area;
  description: string;
  hooks?: ProxyHooks;
  options?: MutantOptions;
  only?: string[];
}

/** What names a variant: `<id slug>--<slug>`, the requirement it breaks and the verdict its level gives. */
export function variantIdentity(
  spec: Pick<MutantSpec, 'breaks' | 'slug' | 'area' | 'description'>,
): Pick<Variant, 'name' | 'breaks' | 'expect' | 'area' | 'description'> {
  return {
    name: `${idSlug(spec.breaks)}--${spec.slug}`,
    breaks: spec.breaks,
    expect: expectedVerdict(spec.breaks),
    area: spec.area,
    description: spec.description,
  };
}

export function mutant(spec: MutantSpec): Variant {
  return {
    ...variantIdentity(spec),
    ...(spec.only ? { only: spec.only } : {}),
    start: () => startMutant(spec.hooks, spec.options),
  };
}
