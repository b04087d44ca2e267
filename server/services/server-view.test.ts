import { describe, expect, it } from 'vitest';
import type { AllocationRow, EggVariableRow } from '../db/schema';
import { allocationResource, fillStartup } from './server-view';

const allocation: AllocationRow = { id: 1, node_id: 1, ip: '10.0.0.5', ip_alias: null, port: 25565, server_id: 1, notes: null };

function variable(env: string, viewable = 1): EggVariableRow {
  return {
    id: 1,
    egg_id: 1,
    name: env,
    description: '',
    env_variable: env,
    default_value: '',
    user_viewable: viewable,
    user_editable: 1,
    rules: '',
    created_at: '',
    updated_at: '',
  };
}

describe('fillStartup', () => {
  it('fills memory, IP, port and variables', () => {
    const out = fillStartup(
      'run -m {{SERVER_MEMORY}} {{SERVER_IP}}:{{SERVER_PORT}} {{JAR}}',
      1024,
      allocation,
      [{ row: variable('JAR'), value: 'a.jar' }],
      true,
    );
    expect(out).toBe('run -m 1024 10.0.0.5:25565 a.jar');
  });

  it('hides every variable without startup.read but still fills memory, IP and port', () => {
    const out = fillStartup('{{SERVER_MEMORY}} {{SERVER_PORT}} {{JAR}}', 512, allocation, [{ row: variable('JAR'), value: 'a.jar' }], false);
    expect(out).toBe('512 25565 [hidden]');
  });

  it('hides a variable the egg does not let users see', () => {
    const out = fillStartup('{{SECRET}}', 512, allocation, [{ row: variable('SECRET', 0), value: 'hunter2' }], true);
    expect(out).toBe('[hidden]');
  });

  it('inserts values literally, replacement patterns included', () => {
    const out = fillStartup('x {{A}} y', 512, allocation, [{ row: variable('A'), value: "$& $' $1" }], true);
    expect(out).toBe("x $& $' $1 y");
  });
});

describe('allocationResource', () => {
  it('falls back to the IP for a missing alias and to "" for missing notes', () => {
    expect(allocationResource(allocation, true).attributes).toEqual({
      id: 1,
      ip: '10.0.0.5',
      ip_alias: '10.0.0.5',
      port: 25565,
      notes: '',
      is_default: true,
    });
  });

  it('blanks notes when asked to hide them', () => {
    expect(allocationResource({ ...allocation, notes: 'secret' }, true, true).attributes.notes).toBe('');
  });
});
