import vm from 'node:vm';
import * as z from 'zod/mini';
import { checkVariableValue, type eggVariableListSchema, type eggVariableSchema } from '../../src/contract';
import type { Db } from '../db';
import { allocations, eggs, servers } from '../db/repos';
import type { EggVariableRow, ServerRow } from '../db/schema';
import { badRequest, validationError } from '../http/errors';
import { fillStartup, variableResource } from './server-view';

/*
 * A server's startup variables as its users see them (the reference panel's startup endpoints):
 * only the variables the egg lets users see, and changes only to those it lets them edit, each
 * value checked with the variable's own rules.
 */

// Long enough for any sane pattern; an egg regex that backtracks past it refuses the value.
const REGEX_TIME_LIMIT_MS = 100;

/** Runs an egg's pattern with a time limit: egg rules are the operator's, the value is the user's. */
export function testRegexBounded(pattern: RegExp, value: string): boolean {
  try {
    return (
      vm.runInNewContext(
        'new RegExp(source, flags).test(value)',
        { source: pattern.source, flags: pattern.flags, value },
        { timeout: REGEX_TIME_LIMIT_MS },
      ) === true
    );
  } catch {
    return false;
  }
}

interface StartupState {
  variables: { row: EggVariableRow; value: string }[];
  startupCommand: string;
  dockerImages: Record<string, string>;
}

async function load(db: Db, server: ServerRow): Promise<StartupState> {
  const [egg, rows, values, assigned] = await Promise.all([
    eggs.findById(db, server.egg_id),
    eggs.variablesOf(db, [server.egg_id]),
    servers.variableValues(db, [server.id]),
    allocations.ofServers(db, [server.id]),
  ]);
  const variables = rows.map((row) => ({ row, value: values.get(`${server.id}:${row.id}`) ?? row.default_value }));
  const primary = assigned.find((a) => a.id === server.allocation_id);
  // The caller may read startup here, so only variables users may not see are hidden.
  const startupCommand = fillStartup(server.startup, server.memory, primary, variables, true);
  return { variables, startupCommand, dockerImages: egg?.docker_images ?? {} };
}

/** GET startup: the user-viewable variables, the filled and raw startup command, the egg's images. */
export async function startupView(db: Db, server: ServerRow): Promise<z.infer<typeof eggVariableListSchema>> {
  const { variables, startupCommand, dockerImages } = await load(db, server);
  return {
    object: 'list',
    data: variables.filter((v) => v.row.user_viewable === 1).map((v) => variableResource(v.row, v.value, startupCommand, server.startup)),
    meta: { startup_command: startupCommand, docker_images: dockerImages, raw_startup_command: server.startup },
  };
}

export interface VariableChange {
  variable: z.infer<typeof eggVariableSchema>;
  /** The value before, or undefined when nothing changed. */
  old?: string;
}

/**
 * PUT startup/variable: sets the value of a variable users may edit, after its rules. The value is
 * stored trimmed, as the reference panel's middleware trims it.
 */
export async function updateVariable(db: Db, server: ServerRow, key: string, value: string): Promise<VariableChange> {
  const before = await load(db, server);
  const found = before.variables.find((v) => v.row.env_variable === key);
  // The reference panel's answers: a variable users cannot see does not exist for them.
  if (!found || found.row.user_viewable !== 1) throw badRequest('The environment variable you are trying to edit does not exist.');
  if (found.row.user_editable !== 1) throw badRequest('The environment variable you are trying to edit is read-only.');
  const failure = checkVariableValue(value, found.row.rules, found.row.name, testRegexBounded);
  // The field is the variable's key, so a page with one field per variable puts it under the right one.
  if (failure) throw validationError(key, failure, 'rules');

  const next = value.trim();
  if (next !== found.value) await servers.setVariableValue(db, server.id, found.row.id, next);
  const after = await load(db, server);
  return {
    variable: variableResource(found.row, next, after.startupCommand, server.startup),
    ...(next !== found.value ? { old: found.value } : {}),
  };
}
