import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ScheduleRunsTable, SchedulesTable, TasksTable } from './schema-schedules';
import type { ApiKeysTable } from './schema-keys';
import type { LocationsTable, NodesTable } from './schema-nodes';
import type { EggsTable, EggVariablesTable, NestsTable } from './schema-eggs';
import type { ServerTransfersTable } from './schema-transfers';
import type { SettingsTable } from './schema-settings';

export type { ApiKeysTable, ApiKeyType } from './schema-keys';
export type { LocationsTable, NodesTable } from './schema-nodes';
export type { EggsTable, EggVariablesTable, NestsTable } from './schema-eggs';

/*
 * Table types for Kysely. SQLite has no booleans (0/1 integers) and no JSON type (TEXT holding
 * JSON); timestamps are ISO 8601 strings in UTC. Repos convert to API shapes.
 */

export interface UsersTable {
  id: Generated<number>;
  uuid: string;
  username: string;
  email: string;
  name_first: string;
  name_last: string;
  password_hash: string;
  root_admin: number;
  language: string;
  /** The account's colour theme: `light`, `dark` or `system` (Aerie's addition). */
  theme: Generated<string>;
  /** A billing system's id for the account (the application API's `external_id`), unique when set. */
  external_id: string | null;
  use_totp: number;
  totp_secret: string | null;
  /** Last TOTP time step accepted, so an accepted code is never accepted again. */
  totp_last_step: number | null;
  created_at: string;
  updated_at: string;
}

export interface RecoveryTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
}

export interface SessionsTable {
  /** sha256 of the cookie value; the raw token is never stored. */
  id: string;
  user_id: number;
  csrf_token: string;
  ip: string;
  user_agent: string;
  created_at: string;
  last_active_at: string;
  expires_at: string;
}

export interface LoginChallengesTable {
  /** sha256 of the confirmation token. */
  id: string;
  /** sha256 of the browser-bound challenge cookie, so the token is useless in another browser. */
  browser_hash: string;
  user_id: number;
  expires_at: string;
  created_at: string;
}

export interface ServersTable {
  id: Generated<number>;
  uuid: string;
  uuid_short: string;
  external_id: string | null;
  node_id: number;
  owner_id: number;
  egg_id: number;
  name: string;
  description: string;
  status: string | null;
  is_transferring: number;
  memory: number;
  swap: number;
  disk: number;
  io: number;
  cpu: number;
  threads: string | null;
  oom_disabled: number;
  allocation_id: number | null;
  startup: string;
  docker_image: string;
  database_limit: number | null;
  allocation_limit: number | null;
  backup_limit: number | null;
  /** 1: the node installs it without the egg's script (the application API's `skip_scripts`, migration 019). */
  skip_scripts: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface ServerVariablesTable {
  id: Generated<number>;
  server_id: number;
  variable_id: number;
  variable_value: string;
}

export interface AllocationsTable {
  id: Generated<number>;
  node_id: number;
  ip: string;
  ip_alias: string | null;
  port: number;
  server_id: number | null;
  notes: string | null;
}

export interface SubusersTable {
  id: Generated<number>;
  user_id: number;
  server_id: number;
  /** JSON array of permission strings. */
  permissions: string;
  created_at: string;
  updated_at: string;
}

export interface ActivityLogsTable {
  id: Generated<number>;
  batch: string | null;
  event: string;
  ip: string;
  description: string | null;
  actor_id: number | null;
  api_key_id: number | null;
  /** JSON object. */
  properties: string;
  timestamp: string;
}

export interface ActivitySubjectsTable {
  activity_log_id: number;
  subject_type: string;
  subject_id: number;
}

export interface BackupsTable {
  id: Generated<number>;
  uuid: string;
  server_id: number;
  name: string;
  /** JSON array of gitignore-style patterns. */
  ignored_files: string;
  disk: string;
  checksum: string | null;
  bytes: number;
  is_successful: number;
  is_locked: number;
  created_at: string;
  /** Null while the backup runs. */
  completed_at: string | null;
  /** Soft delete, as the reference panel. */
  deleted_at: string | null;
}

export interface DatabaseHostsTable {
  id: Generated<number>;
  name: string;
  host: string;
  port: number;
  username: string;
  /** The admin account's password, sealed with the data dir's secret box. */
  password: string;
  max_databases: number | null;
  /** MAX_USER_CONNECTIONS of each database user made on this host. */
  max_connections_per_user: Generated<number>;
  /** 1 while users made before grants were escaped may still hold wildcard grants (migration 010). */
  grants_need_repair: Generated<number>;
  node_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface DatabasesTable {
  id: Generated<number>;
  server_id: number;
  database_host_id: number;
  /** The real name on the host: `s<server id>_<name>`. */
  database: string;
  username: string;
  /** Where the user may connect from (`%`, an address or a pattern). */
  remote: string;
  /** Sealed with the data dir's secret box. */
  password: string;
  /** The user's MAX_USER_CONNECTIONS on the host. */
  max_connections: number;
  created_at: string;
  updated_at: string;
}

export interface UserSshKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 of the OpenSSH key blob, unpadded base64 without a `SHA256:` prefix. */
  fingerprint: string;
  /** PKCS#8 PEM. */
  public_key: string;
  created_at: string;
}

export interface PasswordResetsTable {
  user_id: number;
  /** SHA-256 of the mailed token. */
  token_hash: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  recovery_tokens: RecoveryTokensTable;
  sessions: SessionsTable;
  login_challenges: LoginChallengesTable;
  api_keys: ApiKeysTable;
  nodes: NodesTable;
  locations: LocationsTable;
  nests: NestsTable;
  eggs: EggsTable;
  egg_variables: EggVariablesTable;
  servers: ServersTable;
  server_variables: ServerVariablesTable;
  allocations: AllocationsTable;
  subusers: SubusersTable;
  activity_logs: ActivityLogsTable;
  activity_subjects: ActivitySubjectsTable;
  backups: BackupsTable;
  database_hosts: DatabaseHostsTable;
  databases: DatabasesTable;
  user_ssh_keys: UserSshKeysTable;
  password_resets: PasswordResetsTable;
  schedules: SchedulesTable;
  tasks: TasksTable;
  schedule_runs: ScheduleRunsTable;
  server_transfers: ServerTransfersTable;
  settings: SettingsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ServerRow = Selectable<ServersTable>;
export type NewServer = Insertable<ServersTable>;
export type AllocationRow = Selectable<AllocationsTable>;
export type SubuserRow = Selectable<SubusersTable>;
export type ActivityLogRow = Selectable<ActivityLogsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NodeRow = Selectable<NodesTable>;
export type LocationRow = Selectable<LocationsTable>;
export type NestRow = Selectable<NestsTable>;
export type EggRow = Selectable<EggsTable>;
export type EggVariableRow = Selectable<EggVariablesTable>;
export type BackupRow = Selectable<BackupsTable>;
export type DatabaseHostRow = Selectable<DatabaseHostsTable>;
export type ServerDatabaseRow = Selectable<DatabasesTable>;
