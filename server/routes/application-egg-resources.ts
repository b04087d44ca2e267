import type { AdminEgg, AdminEggVariable, AdminNest } from '../../src/contract/eggs';
import { EGG_INCLUDES, NEST_INCLUDES } from '../../src/contract/eggs';
import type { AppDeps } from '../deps';
import { eggs, nests } from '../db/repos';
import type { Egg } from '../db/repos/eggs';
import type { EggVariableRow, NestRow } from '../db/schema';
import { notFound } from '../http/errors';
import { serverItems } from '../services/application-server-items';
import type { Caller } from '../services/authentication';
import { includesOf, listOf, mayRead, NULL_RESOURCE, type RelationshipValue } from './application-resources';
import { RESOURCE_MISSING } from './application-users';

/*
 * The application API's `nest`, `egg` and `egg_variable` (the reference's transformers) and their
 * includes. Aerie's eggs never extend another egg, so `include=config` and `include=script` are
 * null resources, as the reference's are for an egg without `config_from` / `copy_script_from`.
 */

type Relationships = Record<string, RelationshipValue>;

export function nestResource(row: NestRow, relationships?: Relationships): { object: 'nest'; attributes: AdminNest } {
  const { id, uuid, author, name, description, created_at, updated_at } = row;
  return { object: 'nest', attributes: { id, uuid, author, name, description, created_at, updated_at, ...(relationships ? { relationships } : {}) } };
}

export function eggResource(egg: Egg, relationships?: Relationships): { object: 'egg'; attributes: AdminEgg } {
  return {
    object: 'egg',
    attributes: {
      id: egg.id,
      uuid: egg.uuid,
      name: egg.name,
      nest: egg.nest_id ?? 0,
      author: egg.author,
      description: egg.description,
      docker_image: Object.values(egg.docker_images)[0] ?? '',
      docker_images: egg.docker_images,
      config: {
        files: egg.stored.files,
        startup: egg.stored.startup,
        stop: egg.config_stop,
        logs: egg.stored.logs,
        file_denylist: egg.file_denylist,
        extends: null,
      },
      startup: egg.startup,
      script: {
        privileged: egg.script_is_privileged === 1,
        install: egg.script_install,
        entry: egg.script_entry,
        container: egg.script_container,
        extends: null,
      },
      created_at: egg.created_at,
      updated_at: egg.updated_at,
      ...(relationships ? { relationships } : {}),
    },
  };
}

export function eggVariableResource(row: EggVariableRow): { object: 'egg_variable'; attributes: AdminEggVariable } {
  return {
    object: 'egg_variable',
    attributes: { ...row, user_viewable: row.user_viewable === 1, user_editable: row.user_editable === 1 },
  };
}

const idParam = (param: unknown) => (typeof param === 'string' && /^\d{1,15}$/.test(param) ? Number(param) : null);

export async function boundNest(deps: AppDeps, param: unknown): Promise<NestRow> {
  const id = idParam(param);
  const nest = id === null ? undefined : await nests.findById(deps.db, id);
  if (!nest) throw notFound(RESOURCE_MISSING);
  return nest;
}

/** An egg of that nest (an egg of another nest is as missing as no egg, as the reference's scoped binding). */
export async function boundEgg(deps: AppDeps, params: unknown): Promise<Egg> {
  const { nest, egg } = (params ?? {}) as { nest?: unknown; egg?: unknown };
  const nestId = idParam(nest);
  const eggId = idParam(egg);
  const found = eggId === null ? undefined : await eggs.findById(deps.db, eggId);
  if (!found || nestId === null || found.nest_id !== nestId) throw notFound(RESOURCE_MISSING);
  return found;
}

export async function renderEggs(deps: AppDeps, caller: Caller, rows: Egg[], include: string | undefined) {
  const asked = includesOf(include, EGG_INCLUDES);
  if (asked.length === 0) return rows.map((egg) => eggResource(egg));
  const ids = rows.map((e) => e.id);
  const [nestRows, servers, variables] = await Promise.all([
    asked.includes('nest') ? nests.findByIds(deps.db, [...new Set(rows.map((e) => e.nest_id ?? 0))]) : [],
    asked.includes('servers') && mayRead(caller, 'servers') ? eggs.serversOf(deps.db, ids).then((s) => serverItems(deps.db, s)) : [],
    asked.includes('variables') ? eggs.variablesOf(deps.db, ids) : [],
  ]);
  return rows.map((egg) => {
    const relationships: Relationships = {};
    for (const name of asked) {
      if (name === 'nest') {
        const nest = nestRows.find((n) => n.id === egg.nest_id);
        relationships.nest = mayRead(caller, 'nests') && nest ? nestResource(nest) : NULL_RESOURCE;
      } else if (name === 'servers') {
        relationships.servers = mayRead(caller, 'servers') ? listOf(servers.filter((s) => s.attributes.egg === egg.id)) : NULL_RESOURCE;
      } else if (name === 'variables') {
        const own = variables.filter((v) => v.egg_id === egg.id).map(eggVariableResource);
        relationships.variables = mayRead(caller, 'eggs') ? listOf(own) : NULL_RESOURCE;
      } else {
        relationships[name] = NULL_RESOURCE;
      }
    }
    return eggResource(egg, relationships);
  });
}

export async function renderNests(deps: AppDeps, caller: Caller, rows: NestRow[], include: string | undefined) {
  const asked = includesOf(include, NEST_INCLUDES);
  if (asked.length === 0) return rows.map((row) => nestResource(row));
  const nestEggs = await eggs.ofNests(
    deps.db,
    rows.map((n) => n.id),
  );
  const [renderedEggs, servers] = await Promise.all([
    asked.includes('eggs') && mayRead(caller, 'eggs') ? renderEggs(deps, caller, nestEggs, undefined) : [],
    asked.includes('servers') && mayRead(caller, 'servers')
      ? eggs
          .serversOf(
            deps.db,
            nestEggs.map((e) => e.id),
          )
          .then((s) => serverItems(deps.db, s))
      : [],
  ]);
  const nestOf = new Map(nestEggs.map((e) => [e.id, e.nest_id]));
  return rows.map((row) => {
    const relationships: Relationships = {};
    if (asked.includes('eggs')) {
      relationships.eggs = mayRead(caller, 'eggs') ? listOf(renderedEggs.filter((e) => e.attributes.nest === row.id)) : NULL_RESOURCE;
    }
    if (asked.includes('servers')) {
      relationships.servers = mayRead(caller, 'servers') ? listOf(servers.filter((s) => nestOf.get(s.attributes.egg) === row.id)) : NULL_RESOURCE;
    }
    return nestResource(row, relationships);
  });
}
