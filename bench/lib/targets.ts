// The three message/send targets, each in its own child process: the floor (node:http + JSON), the
// reference server, and the @a2a-js/sdk peer. Each knows its URL, headers, request shape and how to
// tell a correct answer from a wrong one.
import { fileURLToPath } from 'node:url';
import { completedEcho, peerBody, postJson, serviceBody } from './bodies.ts';
import { startChild, type Child } from './child.ts';

export interface Target {
  name: 'floor' | 'reference' | 'peer';
  url: string;
  headers: Record<string, string>;
  body: string;
  child: Child<unknown>;
  /** One request, checked: throws when the answer is not what the server should say. */
  probe(): Promise<void>;
}

export const PROFILE_DIR = fileURLToPath(new URL('../results/profiles/', import.meta.url));

export function profileFlags(on: boolean, tag: string): string[] {
  // No --cpu-prof-name: each thread (tsx runs a loader thread) writes its own CPU.*.cpuprofile.
  return on ? ['--cpu-prof', '--cpu-prof-dir', `${PROFILE_DIR}${tag}`] : [];
}

interface ReferenceInfo {
  baseUrl: string;
  apiKey: string;
}

export async function startReference(
  profile: string,
  nodeFlags: string[] = [],
): Promise<Child<ReferenceInfo>> {
  return startChild<ReferenceInfo>('reference', { args: [profile], nodeFlags });
}

export function agentUrl(info: ReferenceInfo, agentId = 'bench'): string {
  return `${info.baseUrl}/api/v1/a2a/${agentId}`;
}

export async function referenceTarget(cpuProf: boolean): Promise<Target> {
  const child = await startReference('send', profileFlags(cpuProf, 'reference-send'));
  const url = agentUrl(child.info);
  const headers = { 'x-api-key': child.info.apiKey };
  const body = serviceBody();
  return {
    name: 'reference',
    url,
    headers,
    body,
    child,
    probe: async () => void completedEcho(await postJson(url, headers, body)),
  };
}

export async function floorTarget(): Promise<Target> {
  const child = await startChild<{ url: string }>('floor');
  const { url } = child.info;
  const body = serviceBody();
  return {
    name: 'floor',
    url,
    headers: {},
    body,
    child,
    probe: async () => {
      const answer = (await postJson(url, {}, body)) as { result?: unknown };
      const sent = (JSON.parse(body) as { params: unknown }).params;
      if (JSON.stringify(answer.result) !== JSON.stringify(sent))
        throw new Error('floor: result is not the params');
    },
  };
}

export async function peerTarget(): Promise<Target> {
  const child = await startChild<{ url: string; apiKey: string }>('sdk-peer');
  const { url, apiKey } = child.info;
  const headers = { 'x-api-key': apiKey };
  const body = peerBody();
  return {
    name: 'peer',
    url,
    headers,
    body,
    child,
    probe: async () => void completedEcho(await postJson(url, headers, body)),
  };
}
